import { mountUnframed } from '../frame-guard.js';
import { ManagePage } from './ManagePage.js';

mountUnframed(<ManagePage />);
