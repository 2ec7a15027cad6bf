package org.nettyrack.core.files;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A file under a public directory and its precompressed siblings ({@code app.js.br},
 * {@code app.js.gz}), each as {@link FileFacts} read at one moment (a sibling null when
 * absent); {@link Precompressed#choose} picks the one to send.
 */
public record PublicFile(FileFacts plain, FileFacts brotli, FileFacts gzip) {

    /** The file {@code real} names (a real path found by {@link PublicDir}), or null when it is gone. */
    public static PublicFile read(Path real) throws IOException {
        FileFacts plain = FileFacts.read(real, null);
        if (plain == null) {
            return null;
        }
        String name = real.getFileName().toString();
        return new PublicFile(plain, FileFacts.read(real.resolveSibling(name + ".br"), "br"),
            FileFacts.read(real.resolveSibling(name + ".gz"), "gzip"));
    }
}
