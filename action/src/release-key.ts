/**
 * The public half of the key clew releases are signed with (Ed25519, PEM), trusted when the
 * `trusted-key` input is empty. Empty while the project publishes no releases (install.sh's
 * CLEW_RELEASE_PUBLIC_KEY is filled in per release for the same reason); until then a download
 * needs `trusted-key`, and `clew-path` needs nothing.
 */
export const PROJECT_RELEASE_PUBLIC_KEY = "";
