import { GENERIC, type HostProfile } from "../host/profile.js";

/**
 * loadProfile (./profile-file.ts) for the commands that start up often: the default profile is the
 * constant profiles/generic.json holds (a test keeps them equal), so the profile file reader and its
 * schema validator load only for another profile. Throws HostProfileError as loadProfile does.
 */
export async function loadHostProfile(nameOrPath: string, cwd?: string): Promise<HostProfile> {
  if (nameOrPath === "generic") return GENERIC;
  return (await import("./profile-file.js")).loadProfile(nameOrPath, cwd);
}
