// The folder server's language when --locale is not given, from the environment: the rule,
// in-process. cli-locale-serve.test.ts serves under each environment (one case through the built bin).
import { describe, expect, it } from "vitest";
import { HELP, parseCommandLine } from "../../src/cli/args.js";
import { chooseLocale, describeLocaleChoice, localeOfName } from "../../src/cli/locale.js";

describe("localeOfName", () => {
  it.each([
    ["pt_BR.UTF-8", "pt-BR"],
    ["pt_BR", "pt-BR"],
    ["pt_PT.UTF-8", "pt-BR"], // the only Portuguese the server speaks
    ["pt", "pt-BR"],
    ["pt-BR", "pt-BR"],
    ["pt_BR.ISO-8859-1", "pt-BR"],
    ["es_ES.UTF-8", "es"],
    ["es_MX.UTF-8", "es"],
    ["es_AR", "es"],
    ["en_US.UTF-8", "en"],
    ["en_GB.UTF-8", "en"],
    ["en_US.UTF-8@euro", "en"],
    ["C", undefined],
    ["C.UTF-8", undefined],
    ["POSIX", undefined],
    ["fr_FR.UTF-8", undefined],
    ["de_DE@euro", undefined],
    ["ptx", undefined],
  ] as const)("reads %j as %j", (name, locale) => {
    expect(localeOfName(name)).toBe(locale);
  });
});

describe("chooseLocale", () => {
  it.each([
    // one variable at a time
    [{ LANG: "en_US.UTF-8" }, "en", "from LANG=en_US.UTF-8"],
    [{ LANG: "pt_BR.UTF-8" }, "pt-BR", "from LANG=pt_BR.UTF-8"],
    [{ LANG: "es_ES.UTF-8" }, "es", "from LANG=es_ES.UTF-8"],
    [{ LC_MESSAGES: "pt_BR.UTF-8" }, "pt-BR", "from LC_MESSAGES=pt_BR.UTF-8"],
    [{ LC_ALL: "es_MX.UTF-8" }, "es", "from LC_ALL=es_MX.UTF-8"],
    // precedence: LC_ALL, then LC_MESSAGES, then LANG
    [{ LC_ALL: "es_ES.UTF-8", LC_MESSAGES: "en_US.UTF-8", LANG: "pt_BR.UTF-8" }, "es", "from LC_ALL=es_ES.UTF-8"],
    [{ LC_MESSAGES: "pt_BR.UTF-8", LANG: "en_US.UTF-8" }, "pt-BR", "from LC_MESSAGES=pt_BR.UTF-8"],
    [{ LC_ALL: "C", LANG: "pt_BR.UTF-8" }, "en", "from LC_ALL=C, which is not pt, es or en"],
    // an empty variable counts as unset (POSIX)
    [{ LC_ALL: "", LC_MESSAGES: "", LANG: "pt_BR.UTF-8" }, "pt-BR", "from LANG=pt_BR.UTF-8"],
    // anything else gives en
    [{ LANG: "C" }, "en", "from LANG=C, which is not pt, es or en"],
    [{ LANG: "C.UTF-8" }, "en", "from LANG=C.UTF-8, which is not pt, es or en"],
    [{ LANG: "POSIX" }, "en", "from LANG=POSIX, which is not pt, es or en"],
    [{ LANG: "fr_FR.UTF-8" }, "en", "from LANG=fr_FR.UTF-8, which is not pt, es or en"],
    [{ LANG: "" }, "en", "default: no locale in the environment"],
    [{}, "en", "default: no locale in the environment"],
    // other locale categories do not choose the language of messages
    [{ LC_CTYPE: "pt_BR.UTF-8", LC_TIME: "es_ES.UTF-8" }, "en", "default: no locale in the environment"],
  ] as const)("chooses from %j: %s", (environment, locale, reason) => {
    expect(chooseLocale(undefined, environment)).toStrictEqual({ locale, reason });
  });

  it("lets --locale win over every variable", () => {
    const environment = { LC_ALL: "es_ES.UTF-8", LC_MESSAGES: "es_ES.UTF-8", LANG: "es_ES.UTF-8" };
    expect(chooseLocale("pt-BR", environment)).toStrictEqual({ locale: "pt-BR", reason: "from --locale" });
    expect(chooseLocale("en", {})).toStrictEqual({ locale: "en", reason: "from --locale" });
  });

  it.each([
    [{ locale: "en", reason: "from LANG=en_US.UTF-8" }, "locale en (from LANG=en_US.UTF-8)"],
    [{ locale: "pt-BR", reason: "from --locale" }, "locale pt-BR (from --locale)"],
    [{ locale: "en", reason: "default: no locale in the environment" }, "locale en (default: no locale in the environment)"],
  ] as const)("says %j as %j", (choice, line) => {
    expect(describeLocaleChoice(choice)).toBe(line);
  });
});

describe("parseCommandLine and the environment", () => {
  it.each([
    [["serve", "docs"], { LANG: "pt_BR.UTF-8" }, "pt-BR", "from LANG=pt_BR.UTF-8"],
    [["serve", "docs"], { LANG: "C" }, "en", "from LANG=C, which is not pt, es or en"],
    [["serve", "docs", "--locale", "es"], { LANG: "pt_BR.UTF-8" }, "es", "from --locale"],
    [["serve", "docs", "--http", "8787"], { LC_MESSAGES: "es_AR.UTF-8" }, "es", "from LC_MESSAGES=es_AR.UTF-8"],
  ] as const)("serve %j under %j speaks %s", (argv, environment, locale, reason) => {
    const line = parseCommandLine(argv, environment);
    expect(line.command === "serve" && [line.options.locale, line.options.localeReason]).toStrictEqual([locale, reason]);
  });

  it("reads the demo's locale by the same rule", () => {
    expect(parseCommandLine(["demo"], { LANG: "es_ES.UTF-8" })).toStrictEqual({ command: "demo", locale: "es", localeReason: "from LANG=es_ES.UTF-8" });
    expect(parseCommandLine(["demo", "--locale", "pt-BR"], { LANG: "es_ES.UTF-8" })).toStrictEqual({
      command: "demo",
      locale: "pt-BR",
      localeReason: "from --locale",
    });
  });

  it("still refuses a --locale the server does not speak, whatever the environment", () => {
    expect(parseCommandLine(["serve", "docs", "--locale", "fr"], { LANG: "pt_BR.UTF-8" })).toStrictEqual({
      command: "error",
      message: '--locale must be pt-BR, en, es (got "fr").',
    });
    expect(parseCommandLine(["demo", "--locale", "pt_BR.UTF-8"])).toStrictEqual({
      command: "error",
      message: '--locale must be pt-BR, en, es (got "pt_BR.UTF-8").',
    });
  });

  it("states the rule in the help text", () => {
    const help = HELP.replace(/\s+/g, " ");
    expect(help).toContain("Without it, the first of LC_ALL, LC_MESSAGES and LANG that is set: pt* gives pt-BR, es* gives es, anything else (en*, C, POSIX, unset) gives en.");
    expect(help).toContain("--locale always wins");
    expect(help).toContain("mcp-search demo [--locale L]");
  });
});
