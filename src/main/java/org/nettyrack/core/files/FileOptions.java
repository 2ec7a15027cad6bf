package org.nettyrack.core.files;

import java.nio.file.Path;

/**
 * How a server serves files: the public directory answered before the application (null for
 * none), whether names starting with "." are served from it, Cache-Control by path, and
 * whether an application's {@code x-sendfile} response header is honoured (and announced in
 * the env as {@code HTTP_X_SENDFILE_TYPE}). {@link #sendfile} is on whenever a public
 * directory is.
 */
public record FileOptions(Path publicDir, boolean dotfiles, CacheRules cacheControl, boolean sendfile) {
    public static final FileOptions NONE = new FileOptions(null, false, CacheRules.NONE, false);

    public FileOptions {
        cacheControl = cacheControl == null ? CacheRules.NONE : cacheControl;
        sendfile = sendfile || publicDir != null;
    }
}
