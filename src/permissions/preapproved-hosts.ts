/**
 * Documentation sites WebFetch may read without asking, as Claude Code pre-approves them. Only
 * WebFetch's GET requests are covered: nothing else (Bash, a sandbox's network list) inherits
 * these hosts, since several of them accept uploads. Deny and ask rules still win over the list.
 * An entry with a path (`github.com/anthropics`) covers that path and below, at segment boundaries.
 */
const HOSTS = [
  // Anthropic
  "platform.claude.com", "code.claude.com", "modelcontextprotocol.io", "github.com/anthropics", "agentskills.io",
  // Languages
  "docs.python.org", "en.cppreference.com", "docs.oracle.com", "learn.microsoft.com", "developer.mozilla.org", "go.dev",
  "pkg.go.dev", "www.php.net", "docs.swift.org", "kotlinlang.org", "ruby-doc.org", "doc.rust-lang.org", "www.typescriptlang.org",
  // Web frameworks and libraries
  "react.dev", "angular.io", "vuejs.org", "nextjs.org", "expressjs.com", "nodejs.org", "bun.sh", "jquery.com", "getbootstrap.com",
  "tailwindcss.com", "d3js.org", "threejs.org", "redux.js.org", "webpack.js.org", "jestjs.io", "reactrouter.com",
  // Python
  "docs.djangoproject.com", "flask.palletsprojects.com", "fastapi.tiangolo.com", "pandas.pydata.org", "numpy.org",
  "www.tensorflow.org", "pytorch.org", "scikit-learn.org", "matplotlib.org", "requests.readthedocs.io", "jupyter.org",
  // PHP, Java, .NET
  "laravel.com", "symfony.com", "wordpress.org", "docs.spring.io", "hibernate.org", "tomcat.apache.org", "gradle.org",
  "maven.apache.org", "asp.net", "dotnet.microsoft.com", "nuget.org", "blazor.net",
  // Mobile
  "reactnative.dev", "docs.flutter.dev", "developer.apple.com", "developer.android.com",
  // Data and machine learning
  "keras.io", "spark.apache.org", "huggingface.co", "www.kaggle.com",
  // Databases
  "www.mongodb.com", "redis.io", "www.postgresql.org", "dev.mysql.com", "www.sqlite.org", "graphql.org", "prisma.io",
  // Cloud and operations
  "docs.aws.amazon.com", "cloud.google.com", "kubernetes.io", "www.docker.com", "www.terraform.io", "www.ansible.com",
  "vercel.com/docs", "docs.netlify.com", "devcenter.heroku.com",
  // Testing, games, tools
  "cypress.io", "selenium.dev", "docs.unity.com", "docs.unrealengine.com", "git-scm.com", "nginx.org", "httpd.apache.org",
];

const WHOLE_HOSTS = new Set(HOSTS.filter((entry) => !entry.includes("/")));
const PATH_PREFIXES = new Map<string, string[]>();
for (const entry of HOSTS) {
  const slash = entry.indexOf("/");
  if (slash < 0) continue;
  const host = entry.slice(0, slash);
  PATH_PREFIXES.set(host, [...(PATH_PREFIXES.get(host) ?? []), entry.slice(slash)]);
}

/** Whether WebFetch may read `url` without a rule: its exact host (and path, for path entries) is listed. */
export function isPreapprovedUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return false;
  if (parsed.username !== "" || parsed.password !== "" || (parsed.port !== "" && parsed.port !== "443" && parsed.port !== "80")) return false;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  if (WHOLE_HOSTS.has(host)) return true;
  return (PATH_PREFIXES.get(host) ?? []).some((prefix) => parsed.pathname === prefix || parsed.pathname.startsWith(`${prefix}/`));
}
