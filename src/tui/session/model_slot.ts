import type { Runtime } from '../../runtime/create_runtime.js';
import type { UiStore } from '../state/store.js';
import type { ConversationHost, LoadedModel } from './host.js';

/**
 * The session's model: named at start (flags, settings) or by /model, loaded once per runtime
 * (loading also tells the runtime what the model can do), in the background where it can be.
 */
export class ModelSlot {
  private model?: LoadedModel;
  private loading?: Promise<LoadedModel | undefined>;

  constructor(
    private readonly host: ConversationHost,
    private readonly store: UiStore,
    public name: string | undefined,
  ) {}

  get loaded(): LoadedModel | undefined {
    return this.model;
  }

  /** The model, loaded for this runtime; undefined (with the reason shown) when it cannot be. */
  load(runtime: Runtime): Promise<LoadedModel | undefined> {
    if (!this.name) return Promise.resolve(undefined);
    const name = this.name;
    this.loading ??= this.host.loadModel(runtime, name).then(
      (model) => {
        this.model = model;
        this.store.setStatus({ model: name, contextWindow: model.capabilities.contextWindow });
        return model;
      },
      (error: Error) => {
        this.loading = undefined;
        this.store.add({
          kind: 'notice',
          tone: 'error',
          text: `${error.message} (choose another with /model)`,
        });
        return undefined;
      },
    );
    return this.loading;
  }

  /** Loads another model; the current one stays when it cannot be loaded. */
  async switchTo(name: string, runtime: Runtime): Promise<LoadedModel | undefined> {
    const previous = { name: this.name, model: this.model, loading: this.loading };
    this.name = name;
    this.loading = undefined;
    const model = await this.load(runtime);
    if (!model) {
      this.name = previous.name;
      this.model = previous.model;
      this.loading = previous.loading;
      this.store.setStatus({ model: previous.name });
    }
    return model;
  }

  /** A new runtime needs the model loaded again (its capabilities set on it). */
  reset(): void {
    this.model = undefined;
    this.loading = undefined;
  }
}
