import { mountUnframed } from '../frame-guard.js';
import { LoginPage } from './LoginPage.js';

mountUnframed(<LoginPage />);
