import { runStatus } from '../light/status-run.js';
import { commandOf } from '../grammar/commander.js';

export const statusCommand = commandOf('status', ({ options }) => runStatus(options));
