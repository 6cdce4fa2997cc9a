import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { openFolder, type Folder } from "../../src/folder/folder.js";
import { connectInMemory } from "../_cli-memory.js";

/**
 * `resources/read` under attack, through a real Client linked in memory to the real folder server:
 * `..` written and encoded, absolute paths, other schemes, symbolic links out of the folder, and a
 * separate process swapping files for links to an outside secret while clients list and read.
 * Nothing outside the folder is ever returned, and every refusal names the uri.
 */

const SECRET = "SECRETMARK zebrafish hunter2";
let workspace: string;
let root: string;
let outside: string;
const clients: Client[] = [];
const folders: Folder[] = [];

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-resource-attack-"));
  root = join(workspace, "docs");
  outside = join(workspace, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, "passwords.md"), `# Secret\n\n${SECRET}\n`);
  await writeFile(join(root, "good.md"), "# Good\n\nzebrafish brewing notes, inside the folder\n");
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const folder of folders.splice(0)) folder.close();
  await rm(workspace, { recursive: true, force: true });
});

async function connect(): Promise<Client> {
  const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
  const folder = await openFolder({ root, vocabulary });
  folders.push(folder);
  await folder.ready;
  return (await connectInMemory({ name: "test", version: "0.0.0", vocabulary, folder, locale: "en" }, clients)).client;
}

/** The whole answer to a read, success or error, as text. */
async function answer(client: Client, uri: string): Promise<{ ok: boolean; text: string }> {
  try {
    return { ok: true, text: JSON.stringify(await client.readResource({ uri })) };
  } catch (error) {
    return { ok: false, text: (error as Error).message };
  }
}

describe("resources/read against containment attacks", () => {
  const REFUSED = "was refused: it points outside the served folder";
  const UNKNOWN = "No document of the folder has the uri";
  const FOREIGN = "it is not a uri of this server";
  const attacks: [string, (outsideFolder: string) => string, string][] = [
    ["`..` written", () => "mcp-search://doc/../outside/passwords.md", REFUSED],
    ["`..` after a folder", () => "mcp-search://doc/guides/../../outside/passwords.md", REFUSED],
    ["`..` encoded as %2e%2e", () => "mcp-search://doc/%2e%2e/outside/passwords.md", REFUSED],
    ["`../` encoded whole", () => "mcp-search://doc/%2E%2E%2Foutside%2Fpasswords.md", REFUSED],
    ["`..` with encoded backslashes", () => "mcp-search://doc/..%5Coutside%5Cpasswords.md", REFUSED],
    ["a drive letter", () => "mcp-search://doc/C:%5Cwindows%5Cwin.ini", REFUSED],
    ["`..` encoded twice (a literal name)", () => "mcp-search://doc/%252e%252e/outside/passwords.md", UNKNOWN],
    ["an absolute path after the authority", (out) => `mcp-search://doc/${out}/passwords.md`, UNKNOWN],
    ["an absolute path, encoded", (out) => `mcp-search://doc/${encodeURIComponent(`${out}/passwords.md`)}`, UNKNOWN],
    ["/etc/passwd after the authority", () => "mcp-search://doc//etc/passwd", UNKNOWN],
    ["a link to an outside file", () => "mcp-search://doc/leak.md", UNKNOWN],
    ["a file under a link to an outside folder", () => "mcp-search://doc/linked/passwords.md", UNKNOWN],
    ["a NUL byte", () => "mcp-search://doc/good.md%00.txt", "was refused: it contains a NUL byte"],
    ["a file:// URI", (out) => pathToFileURL(join(out, "passwords.md")).href, FOREIGN],
    ["a bare absolute path", (out) => join(out, "passwords.md"), FOREIGN],
    ["a bare relative path", () => "../outside/passwords.md", FOREIGN],
    ["a fetch id", () => "doc:../outside/passwords.md", FOREIGN],
  ];

  it.each(attacks)("refuses %s, naming the uri, and reads nothing outside", async (_name, uriOf, message) => {
    await symlink(join(outside, "passwords.md"), join(root, "leak.md"));
    await symlink(outside, join(root, "linked"));
    const client = await connect();
    const uri = uriOf(outside);
    const { ok, text } = await answer(client, uri);
    expect(ok).toBe(false);
    expect(text).toContain(JSON.stringify(uri));
    expect(text).toContain(message);
    expect(text).not.toContain("SECRETMARK");
  });

  it("lists no link that leads out, and reads one that stays inside", async () => {
    await symlink(join(outside, "passwords.md"), join(root, "leak.md"));
    await symlink(join(root, "good.md"), join(root, "alias.md"));
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.name)).toStrictEqual(["alias.md", "good.md"]);
    const { ok, text } = await answer(client, "mcp-search://doc/alias.md");
    expect([ok, text.includes("zebrafish brewing notes")]).toStrictEqual([true, true]);
  });
});

describe("resources/read under a symlink-swap race", () => {
  it("never returns the outside secret while files are swapped for links to it", async () => {
    const files = Array.from({ length: 12 }, (_, index) => `race${index}.md`);
    for (const file of files) await writeFile(join(root, file), "# Race\n\nzebrafish harmless words\n");
    await mkdir(join(root, ".racer")); // hidden: never indexed, the racer's temporary names live here
    const readers = await Promise.all([connect(), connect(), connect()]);
    // The racer: a separate process swapping each file for a link to the secret and back, and a
    // folder holding a link for a plain folder, for 2 s, while three clients list and read.
    const racer = spawn(process.execPath, ["-e", `
      const fs = require("node:fs"); const path = require("node:path");
      const [root, secret, until] = [process.argv[1], process.argv[2], Date.now() + Number(process.argv[3])];
      const files = ${JSON.stringify(files)};
      for (let round = 0; Date.now() < until; round += 1) {
        for (const file of files) {
          const target = path.join(root, file), temp = path.join(root, ".racer", file);
          try { fs.symlinkSync(secret, temp); fs.renameSync(temp, target); } catch {}
          try { fs.writeFileSync(temp, "# Race\\n\\nzebrafish harmless words " + round + "\\n"); fs.renameSync(temp, target); } catch {}
        }
        const flip = path.join(root, "flip"), parked = path.join(root, ".racer", "flip");
        try { fs.rmSync(flip, { recursive: true, force: true }); fs.mkdirSync(flip); fs.writeFileSync(path.join(flip, "x.md"), "zebrafish flip"); } catch {}
        try { fs.symlinkSync(path.dirname(secret), parked); fs.rmSync(flip, { recursive: true, force: true }); fs.renameSync(parked, flip); } catch {}
      }`, root, join(outside, "passwords.md"), "2000"], { stdio: "ignore" });
    let done = false;
    const racing = new Promise<void>((resolve) => racer.once("exit", () => resolve())).then(() => (done = true));
    let reads = 0;
    let leaks = 0;
    await Promise.all(
      readers.map(async (client, which) => {
        for (let round = 0; !done && round < 3000; round += 1) {
          const listed = JSON.stringify(await client.listResources());
          if (listed.includes("SECRETMARK")) leaks += 1;
          for (const uri of [`mcp-search://doc/${files[(round + which) % files.length] ?? ""}`, "mcp-search://doc/flip/x.md", "mcp-search://doc/flip/passwords.md"]) {
            const { text } = await answer(client, uri);
            reads += 1;
            if (text.includes("SECRETMARK") || text.includes("hunter2")) leaks += 1;
          }
        }
      }),
    );
    await racing;
    expect(reads).toBeGreaterThan(30);
    expect(leaks).toBe(0);
  }, 30_000);
});
