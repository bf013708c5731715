import { cronCreate } from './cron_create.js';
import { cronDelete } from './cron_delete.js';
import { cronList } from './cron_list.js';
import { remoteTrigger } from './remote_trigger.js';

/** cron_* (feature `triggers`) and remote_trigger (feature `remote_triggers`). */
export const scheduleTools = [cronCreate, cronDelete, cronList, remoteTrigger];
