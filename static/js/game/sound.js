// @ts-check
// The optional move sound: a short tone made with Web Audio (no audio file to load). Whether it
// plays is the player's choice, remembered in this browser.
import { preference, setPreference } from '../api.js';

/** @type {AudioContext | null} */
let context = null;

export const soundOn = () => preference('sound') === 'on';

/** @param {boolean} on */
export const setSound = (on) => setPreference('sound', on ? 'on' : 'off');

/** A soft click-like tone of a tenth of a second, when the player wants sounds. */
export function playMoveSound() {
  if (!soundOn() || typeof AudioContext === 'undefined') return;
  context = context || new AudioContext();
  const now = context.currentTime;
  const tone = context.createOscillator();
  const volume = context.createGain();
  tone.type = 'triangle';
  tone.frequency.setValueAtTime(660, now);
  tone.frequency.exponentialRampToValueAtTime(330, now + 0.1);
  volume.gain.setValueAtTime(0.2, now);
  volume.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
  tone.connect(volume).connect(context.destination);
  tone.start(now);
  tone.stop(now + 0.13);
}
