import { taskCreate } from './task_create.js';
import { taskGet } from './task_get.js';
import { taskList } from './task_list.js';
import { taskOutput } from './task_output.js';
import { taskStop } from './task_stop.js';
import { taskUpdate } from './task_update.js';

/** The task_* tools (feature `tasks`). */
export const taskTools = [taskCreate, taskGet, taskUpdate, taskList, taskOutput, taskStop];
