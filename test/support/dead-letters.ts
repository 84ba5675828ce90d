// Dead letters as a test sees them: the service's bus still parks each one; the test keeps a copy.
import type { Bus, BusMessage } from '../../src/ingest/bus.js';

export interface SeenDeadLetter {
  message: BusMessage;
  reason: string;
  at: number;
}

/** Records every dead letter that passes through this bus object from now on. */
export function watchDeadLetters(bus: Bus): SeenDeadLetter[] {
  const letters: SeenDeadLetter[] = [];
  const deadLetter = bus.deadLetter.bind(bus);
  bus.deadLetter = async (message, reason) => {
    await deadLetter(message, reason);
    letters.push({ message, reason, at: Date.now() });
  };
  return letters;
}
