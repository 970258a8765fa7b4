import { defineRule } from "../../core/rule.js";
import type { KeyLocation } from "../../core/input/approval.js";

/** The hints: where keys are kept out of the project's reach. */
const TRUSTED_HOME =
  "keep trusted keys in ~/.config/plangate (or $XDG_CONFIG_HOME/plangate) or ~/.ssh, or in a file owned by another user that you cannot write (e.g. root's /etc/plangate), outside every project";
const SIGNING_HOME = "keep the signing key in ~/.config/plangate (plangate keygen --out ~/.config/plangate) or ~/.ssh, outside every project";
const ONE_NAME = "give the key file a single name: copy it (cp, not ln) to a new file, point plangate at the copy, and delete the file with several names";

/** Why a project folder is the project's, as a message names it. */
function folderText(f: NonNullable<KeyLocation["folder"]>): string {
  const what = f.anchor === "policy" ? "the folder of the policy file" : f.anchor === "cwd" ? "the folder plangate runs in" : "the folder of the plan";
  return f.repository ? `the repository holding ${what}` : what;
}

/**
 * An "approval" rule: it judges where the keys are: the trusted key that verified an approval, and the key `approve` signs with. The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-key-in-workspace",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      trustedKey: {
        message: "The trusted key {{file}} lives inside the workspace {{workspace}}, which the plan may write: an agent could replace it with its own.",
        hint: "keep trusted keys outside the workspace (e.g. ~/.config/plangate/keys)",
      },
      trustedKeyInProject: {
        message: "The trusted key {{file}} lives inside the repository {{project}} that holds the workspace: whoever writes the project (its policy file included) could replace it with their own.",
        hint: "keep trusted keys outside every repository (e.g. ~/.config/plangate/keys)",
      },
      trustedKeyInFolder: {
        message:
          "The trusted key {{file}} lives inside {{folder}}, {{what}}: whoever writes the project could plant their own key there (a policy they edit can name any key and move its workspace away).",
        hint: TRUSTED_HOME,
      },
      trustedKeyNamedByProject: {
        message:
          "The trusted key {{file}} is named by {{policy}}, a policy file whoever writes the project may edit, and lies outside the per-user key folders: they could name a key of their own anywhere they can write (a temporary folder, another project).",
        hint: `${TRUSTED_HOME}; or keep the policy there too (--policy ~/.config/plangate/plangate.yaml), or name the key yourself (--trusted-keys)`,
      },
      trustedKeyLinked: {
        message: "The trusted key {{file}} has {{links}} names (hard links): a write through another name, perhaps inside the workspace, changes the key without touching this one.",
        hint: ONE_NAME,
      },
      signingKeyInProject: {
        message: "The signing key {{file}} lives inside the repository {{project}} that holds the workspace: whoever writes the project could read it and sign their own approvals.",
        hint: "move the key outside every repository (plangate keygen --out ~/.config/plangate)",
      },
      signingKey: {
        message: "The signing key {{file}} lives inside the workspace {{workspace}}: the plan's steps could read it and sign their own approvals.",
        hint: "move the key outside the workspace (plangate keygen --out ~/.config/plangate)",
      },
      signingKeyInFolder: {
        message: "The signing key {{file}} lives inside {{folder}}, {{what}}: whoever writes the project could read it there and sign their own approvals.",
        hint: SIGNING_HOME,
      },
      signingKeyNamedByProject: {
        message:
          "The signing key {{file}} is named by {{policy}}, a policy file whoever writes the project may edit, and lies outside the per-user key folders: they could name a key of their own, or one they can read.",
        hint: `${SIGNING_HOME}; or keep the policy there too`,
      },
      signingKeyLinked: {
        message: "The signing key {{file}} has {{links}} names (hard links): another name, perhaps inside the workspace, lets it be read without touching this one.",
        hint: ONE_NAME,
      },
    },
    summary: "The signing or trusted key lives where whoever writes the project could replace or read it.",
    docs: {
      description:
        "Reports the trusted public key that verified an approval, and the private key `approve --key` (or plan mode's `approval.key`) signs with, when its file (real path, symlinks resolved) lies where whoever writes the project could replace or read it. " +
        "Inside the workspace; inside the repository that holds the workspace (the nearest folder at or above it with `.git`); or inside a folder the command was pointed at: the folder of the policy file, the folder plangate runs in, the folder of the plan, and the repository holding each. " +
        "The workspace is written in the policy, which whoever writes the project may edit: a policy outside any repository edited to `workspace: ./sub`, with `approval.trustedKeys` naming a key planted beside itself, would otherwise trust that key. " +
        "A key in a per-user key folder (`$XDG_CONFIG_HOME/plangate`, `~/.config/plangate`, `~/.ssh`) is the user's own, unless that folder lies in the project itself; so is a trusted key file owned by another user and writable by neither its group nor others (root's `/etc/plangate`), which the current user cannot rewrite. " +
        "A folder that is the home folder, one of its ancestors or the file-system root is no project's. " +
        "A key named by a policy file that whoever writes the project may edit (one outside the per-user key folders that the current user can write) must lie in a per-user key folder, or be another user's as above, wherever else it lies: the policy could otherwise name a key planted anywhere its editor can write (`/tmp/evil.pub`); a key given on the command line (`--trusted-keys`, `--key`) is the user's own choice. " +
        "A key file with more than one name (hard links) is reported too: another name, which may lie in the workspace, reaches the same file, and where it lies cannot be seen. " +
        "When the policy named the key, the report points at its `approval.trustedKeys` or `approval.key`. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale:
        "The plan's steps may write anywhere in the workspace, and whoever writes the project may write its other folders and the policy file there: a trusted key there could be replaced with their own, and a private key read to sign their own approvals.",
      fix: "Keep keys in the per-user folder, e.g. `plangate keygen --out ~/.config/plangate`, as files with one name each.",
      bad: "plangate verify plan.json --approval a.json --trusted-keys ./keys/plangate.pub   # inside the workspace",
      good: "plangate verify plan.json --approval a.json --trusted-keys ~/.config/plangate/plangate.pub",
    },
  },
  check(input, ctx) {
    let key: string;
    let place: KeyLocation;
    let trusted: boolean;
    if (input.step === "signing") {
      key = input.key;
      place = input;
      trusted = false;
    } else if (input.step === "envelope" && !input.unreadable && input.signature?.kind === "verified") {
      key = input.signature.file;
      place = input.signature;
      trusted = true;
    } else return;
    const at = place.namedAt ? { file: place.namedAt.file, line: place.namedAt.line, column: place.namedAt.column } : {};
    if (place.workspace !== undefined) ctx.report({ messageId: trusted ? "trustedKey" : "signingKey", data: { file: key, workspace: place.workspace }, ...at });
    else if (place.project !== undefined) ctx.report({ messageId: trusted ? "trustedKeyInProject" : "signingKeyInProject", data: { file: key, project: place.project }, ...at });
    // A per-user key folder is the user's own; a trusted key no one but its owner can rewrite was not planted by this user.
    else if (place.userFolder === undefined && !(trusted && place.foreign === true)) {
      if (place.folder !== undefined)
        ctx.report({ messageId: trusted ? "trustedKeyInFolder" : "signingKeyInFolder", data: { file: key, folder: place.folder.dir, what: folderText(place.folder) }, ...at });
      // Named by a policy the project may edit: the place was chosen by whoever writes the project.
      else if (place.namedByProject === true && place.namedAt !== undefined)
        ctx.report({ messageId: trusted ? "trustedKeyNamedByProject" : "signingKeyNamedByProject", data: { file: key, policy: place.namedAt.file }, ...at });
    }
    if (place.links !== undefined && place.links > 1) ctx.report({ messageId: trusted ? "trustedKeyLinked" : "signingKeyLinked", data: { file: key, links: place.links }, ...at });
  },
});
