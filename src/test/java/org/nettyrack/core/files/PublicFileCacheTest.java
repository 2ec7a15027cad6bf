package org.nettyrack.core.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nettyrack.core.HttpDate;

class PublicFileCacheTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @TempDir
    Path root;
    private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
    private PublicDir dir;

    @BeforeEach
    void setUp() throws IOException {
        dir = new PublicDir(root, false);
        Files.writeString(root.resolve("app.css"), "body{}");
    }

    private PublicFileCache cache(long validNanos, int entries) {
        return new PublicFileCache(dir, validNanos, entries, clock::get);
    }

    @Test
    void aSmallFileIsReadOnceWithItsFactsAndKeptForTheCacheTime() throws IOException {
        PublicFileCache cache = cache(SECOND, 16);
        PublicFileCache.Entry first = cache.get("/app.css?v=1");
        assertEquals(PublicDir.Found.FILE, first.found());
        assertArrayEquals("body{}".getBytes(StandardCharsets.UTF_8), first.file().plain().bytes());
        assertEquals(6, first.file().plain().size());

        Files.writeString(root.resolve("app.css"), "body{color:red}");
        clock.addAndGet(SECOND - 1);
        assertSame(first, cache.get("/app.css"), "within the cache time: no stat, the query aside");
        clock.addAndGet(1);
        PublicFileCache.Entry again = cache.get("/app.css");
        assertEquals(15, again.file().plain().size(), "read again once the time is up");
        assertArrayEquals("body{color:red}".getBytes(StandardCharsets.UTF_8), again.file().plain().bytes());
    }

    @Test
    void largerFilesKeepTheirFactsButNotTheirBytes() throws IOException {
        Files.write(root.resolve("big.bin"), new byte[FileFacts.KEEP_BYTES + 1]);
        Files.write(root.resolve("edge.bin"), new byte[FileFacts.KEEP_BYTES]);
        PublicFileCache cache = cache(SECOND, 16);
        assertNull(cache.get("/big.bin").file().plain().bytes());
        assertEquals(FileFacts.KEEP_BYTES + 1, cache.get("/big.bin").file().plain().size());
        assertEquals(FileFacts.KEEP_BYTES, cache.get("/edge.bin").file().plain().bytes().length);
    }

    @Test
    void aMissingPathIsKeptAsTheApplicationsAndSeenOnceCreated() throws IOException {
        PublicFileCache cache = cache(SECOND, 16);
        assertEquals(PublicDir.Found.PASS, cache.get("/new.txt").found());
        Files.writeString(root.resolve("new.txt"), "new");
        assertEquals(PublicDir.Found.PASS, cache.get("/new.txt").found(), "kept for the cache time");
        clock.addAndGet(SECOND);
        assertEquals(PublicDir.Found.FILE, cache.get("/new.txt").found());
    }

    @Test
    void refusalsAreKeptAsTheyAre() throws IOException {
        PublicFileCache cache = cache(SECOND, 16);
        assertEquals(PublicDir.Found.BAD_REQUEST, cache.get("/%2e%2e/etc/passwd").found());
        assertEquals(PublicDir.Found.BAD_REQUEST, cache.get("/%2e%2e/etc/passwd").found());
    }

    @Test
    void aDeletedFileGoesToTheApplicationOnceTheTimeIsUp() throws IOException {
        PublicFileCache cache = cache(SECOND, 16);
        assertEquals(PublicDir.Found.FILE, cache.get("/app.css").found());
        Files.delete(root.resolve("app.css"));
        clock.addAndGet(SECOND);
        assertEquals(PublicDir.Found.PASS, cache.get("/app.css").found());
    }

    @Test
    void siblingsAreReadWithTheFileAndCarryTheirOwnValidators() throws IOException {
        Files.writeString(root.resolve("app.css.gz"), "zz");
        PublicFile file = cache(SECOND, 16).get("/app.css").file();
        assertNull(file.brotli());
        assertEquals(2, file.gzip().size());
        assertEquals(ConditionalRange.etag(file.gzip().modified(), 2, "gzip"), file.gzip().etag());
        assertEquals(HttpDate.formatMillis(file.plain().modified()), file.plain().lastModified());
    }

    @Test
    void zeroTimeKeepsNothing() throws IOException {
        PublicFileCache cache = cache(0, 16);
        PublicFileCache.Entry first = cache.get("/app.css");
        assertEquals(0, cache.size());
        Files.writeString(root.resolve("app.css"), "changed");
        assertEquals(7, cache.get("/app.css").file().plain().size(), "every request sees the file as it is");
        assertEquals(6, first.file().plain().size());
    }

    @Test
    void aFullCacheIsEmptiedRatherThanGrown() throws IOException {
        PublicFileCache cache = cache(SECOND, 3);
        for (int i = 0; i < 3; i++) {
            cache.get("/missing-" + i);
        }
        assertEquals(3, cache.size());
        cache.get("/missing-0");
        assertEquals(3, cache.size(), "a path already kept is replaced in place");
        cache.get("/missing-3");
        assertEquals(1, cache.size());
    }
}
