import { SESSION_TOKEN_TTL_SECONDS } from "../resources/session-tokens.js";
import type { Command } from "./command.js";

const sessionToken: Command = {
  summary: "Mint a short-lived session token for one live motion connection (prints the token alone)",
  flags: {
    ttl: { value: "seconds", description: `Lifetime, under 24 hours (default ${SESSION_TOKEN_TTL_SECONDS})` },
    "model-version": { value: "version", description: "Model version stamped into the token (default: current)" },
  },
  async run({ av, args, out }) {
    const minted = await av.sessionTokens.create({
      ttlSeconds: args.integer("ttl"),
      modelVersion: args.string("model-version"),
    });
    // The token alone on stdout, so `TOKEN=$(avatar-video session-token)` works; --json adds its expiry.
    out.result(minted, minted.sessionToken);
    return 0;
  },
};

export const sessionTokenCommands: Record<string, Command> = { "session-token": sessionToken };
