// Runs the compiled client (out/client.js) against the server check.sh started, and prints
// what it did. Usage: node run.mjs <base URL> <username> <password>
import { playAMatch } from "./out/client.js";

const [baseUrl, username, password] = process.argv.slice(2);
const played = await playAMatch(baseUrl, username, password);
console.log(`TypeScript client: ${JSON.stringify(played)}`);
