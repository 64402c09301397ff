import Type from 'typebox';
import { obj } from '../shared/views.js';

export const Health = obj({ status: Type.Literal('ok') });
