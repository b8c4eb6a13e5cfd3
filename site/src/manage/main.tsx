import { mount } from '../mount.js';
import { ManagePage } from './ManagePage.js';

mount(<ManagePage />);
