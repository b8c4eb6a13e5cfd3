import { mount } from '../mount.js';
import { LoginPage } from './LoginPage.js';

mount(<LoginPage />);
