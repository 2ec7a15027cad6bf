package org.nettyrack.core.config;

import org.nettyrack.core.files.FileOptions;

/**
 * What the server answers beside the app: files from the public directory (and an app's
 * {@code x-sendfile}), how long their lookups are cached, and whether the app may send 103
 * Early Hints. Read by the Netty door's public-file handler and its response sink; the Ruby
 * side fills them together (its FileSettings).
 *
 * @param files public directory, x-sendfile and their rules
 * @param fileCacheMillis how long a public path's lookup and file facts (a small file's bytes too)
 *     are reused; 0: never
 * @param fileCacheEntries how many public paths {@code fileCacheMillis} keeps at once
 * @param earlyHints whether {@code rack.early_hints} sends 103 responses (HTTP/1.1)
 */
public record FileSettings(FileOptions files, long fileCacheMillis, int fileCacheEntries, boolean earlyHints) {
    public static final FileSettings DEFAULTS = new FileSettings(FileOptions.NONE, 1_000, 1_024, true);

    public void check() {
        Check.that(files != null, "file options must not be null");
        Check.that(fileCacheMillis >= 0 && fileCacheMillis <= 3_600_000,
            "file cache time must be 0 to 3600 s, got " + fileCacheMillis / 1000.0 + " s");
        Check.that(fileCacheEntries >= 1 && fileCacheEntries <= 1_000_000,
            "file cache entries must be 1 to 1000000, got " + fileCacheEntries);
        Check.that(files.publicDir() == null || java.nio.file.Files.isDirectory(files.publicDir()),
            "public directory " + files.publicDir() + " is not a directory");
    }
}
