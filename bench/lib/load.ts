/**
 * Imported first by every benchmark: prints the machine's load average when the bench
 * starts and again when it ends, so that each printed figure comes with the load it was
 * taken under (figures are only meaningful on a quiet machine).
 */
import { loadAverage } from './machine.js';

const name = process.argv[1]?.replace(/^.*\/bench\//, 'bench/') ?? 'bench';
console.log(`${name}: start, ${loadAverage()}`);
process.once('exit', () => console.log(`${name}: end, ${loadAverage()}`));
