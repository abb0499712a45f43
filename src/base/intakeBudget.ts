/**
 * The one budget of everything that comes in: server answers, export and segments files, workspace settings. Each
 * input passes it once, where it enters (docs/architecture.md, "Intake"); what is past it is cut there and named
 * where the user looks, so no consumer ever sees more. A repository can never ship what a server would be refused.
 */

const MIB = 1024 * 1024;

export const INTAKE_BUDGET = {
  /** Flags of one listing, or of the export files together (a server listing past it is refused; files are cut). */
  flags: 100_000,
  /** Projects one flag name is in (rows past it are cut). */
  projectsPerName: 1_000,
  /** Entries of any list an input holds beside its flags (strategies, environments, tags, links, dependencies). */
  rowsPerList: 300_000,
  /** Entries of one object beside the lists (a usage row's counts per variant): the first are kept. */
  entriesPerObject: 10_000,
  /** Characters of one text value (a description, a constraint value); longer ones are cut. */
  textChars: 100_000,
  /** Levels of nested lists and objects in one input (an export needs about ten). */
  depth: 64,
  /** Bytes of one server answer once decompressed. */
  answerBytes: 64 * MIB,
  /**
   * Time one export may take, from its request to the answer's last byte, however steadily the bytes come (each
   * wait is also bounded by `unleash.requestTimeoutSeconds`). A real server's 50,000-flag export takes 26 to 42 s
   * before its first byte, then streams 74 MB: ten minutes leave room for that on a slow network.
   */
  exportMs: 10 * 60_000,
  /** Export files read (the first ones by path), the largest one, and all of them together. */
  files: 32,
  fileBytes: 100 * MIB,
  totalFileBytes: 100 * MIB,
  /** Longest one job on an input may take (reading a file, in a worker or in slices), and the worker's memory. */
  jobSeconds: 120,
  workerMegabytes: 1024,
  /**
   * Flag names one export request may name (Update Export sends those a file of part of an environment lists): the
   * server keeps each request whole as an audit event. A file listing more is not updated.
   */
  exportNames: 10_000,
  /** Entries of a list setting a workspace can write (`unleash.hover.sdkCalls`, …); the rest are left out and named. */
  settingItems: 100,
  /** Characters of one entry of such a list. */
  settingItemChars: 200,
  /** Projects `unleash.projects` may name (each is one request on every listing and refresh; the rest are named). */
  settingProjects: 200,
  /**
   * Characters of one value of an evaluation context (a user id, a property's name or value) typed by the user or read
   * from a workspace file; longer ones are cut. SDK contexts hold identifiers, never documents.
   */
  contextChars: 1_000,
  /** Properties of one evaluation context (the first ones are kept, the rest are named as left out). */
  contextProperties: 100,
} as const;
