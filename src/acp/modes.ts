import type { SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { type Mode, PROFILES, type Profile } from '../config/types.js';
import { KNOWN_MODELS } from '../provider/known_models.js';

/** The session modes an editor offers: lathe's Act and Plan, and Act with edits approved. */
export const MODE_IDS = ['act', 'act-edits', 'plan'] as const;
export type AcpModeId = (typeof MODE_IDS)[number];

const MODES: Array<{ id: AcpModeId; name: string; description: string }> = [
  { id: 'act', name: 'Act', description: 'Reads and safe commands run; edits and other commands ask' },
  {
    id: 'act-edits',
    name: 'Act, edits approved',
    description: 'As Act, and edits inside the workspace run without asking',
  },
  { id: 'plan', name: 'Plan', description: 'Nothing changes the workspace without your yes, each time' },
];

export const isModeId = (id: string): id is AcpModeId => (MODE_IDS as readonly string[]).includes(id);

/** lathe's own mode for a session mode. */
export const latheMode = (id: AcpModeId): Mode => (id === 'plan' ? 'plan' : 'act');

export function modeState(current: AcpModeId): SessionModeState {
  return { currentModeId: current, availableModes: MODES };
}

/** What the session's settings are now, for its config options. */
export interface SessionChoices {
  mode: AcpModeId;
  model: string;
  profile: Profile;
}

/** The options an editor shows for a session: mode, model (any `provider/model`), profile. */
export function configOptions(choices: SessionChoices): SessionConfigOption[] {
  const models = [...new Set([choices.model, ...KNOWN_MODELS])];
  return [
    {
      id: 'mode',
      name: 'Mode',
      category: 'mode',
      type: 'select',
      currentValue: choices.mode,
      options: MODES.map((mode) => ({ value: mode.id, name: mode.name, description: mode.description })),
    },
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: choices.model,
      options: models.map((model) => ({ value: model, name: model })),
    },
    {
      id: 'profile',
      name: 'Profile',
      description: 'The tools and prompt: standard, lite (small and local models), simple (three tools)',
      type: 'select',
      currentValue: choices.profile,
      options: PROFILES.map((profile) => ({ value: profile, name: profile })),
    },
  ];
}
