package org.nettyrack.core.files;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What a request path names under a public directory ({@link PublicDir#lookup}) and that
 * file's {@link PublicFile} facts, kept for {@code validNanos} after they were read, as nginx's
 * {@code open_file_cache} keeps them: a path asked for again within that time costs no
 * system call (stat, realpath, open, read), and a small file is sent from memory. A file
 * changed meanwhile is seen at most that late; its old bytes and validators stay consistent
 * with each other. Paths that name no file (those the application answers) are kept too.
 *
 * <p>At most {@code maxEntries} paths are kept (each holding at most
 * {@link FileFacts#KEEP_BYTES} bytes per file and sibling); when a new path finds the cache full,
 * it is emptied, so scanning many paths costs what no cache costs, never memory. With
 * {@code validNanos} 0 nothing is kept. Safe for the event-loop threads to share.
 */
public final class PublicFileCache {
    /** A path's lookup and, for {@link PublicDir.Found#FILE}, its file (a file gone meanwhile is {@link PublicDir.Found#PASS}). */
    public record Entry(PublicDir.Found found, PublicFile file, long readAt) {
    }

    private final PublicDir dir;
    private final long validNanos;
    private final int maxEntries;
    private final LongSupplier clock;
    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();

    public PublicFileCache(PublicDir dir, long validNanos, int maxEntries, LongSupplier clock) {
        if (validNanos < 0 || maxEntries < 1) {
            throw new IllegalArgumentException("cache time must be >= 0 and entries >= 1");
        }
        this.dir = dir;
        this.validNanos = validNanos;
        this.maxEntries = maxEntries;
        this.clock = clock;
    }

    public PublicFileCache(PublicDir dir, long validNanos, int maxEntries) {
        this(dir, validNanos, maxEntries, System::nanoTime);
    }

    /** What {@code target} (a request-target as sent) names now, or as it did less than the cache time ago. */
    public Entry get(String target) throws IOException {
        String path = pathOf(target);
        long now = clock.getAsLong();
        Entry kept = validNanos > 0 ? entries.get(path) : null;
        if (kept != null && now - kept.readAt < validNanos) {
            return kept;
        }
        PublicDir.Lookup lookup = dir.lookup(path);
        PublicFile file = lookup.found() == PublicDir.Found.FILE ? PublicFile.read(lookup.file()) : null;
        PublicDir.Found found = lookup.found() == PublicDir.Found.FILE && file == null ? PublicDir.Found.PASS : lookup.found();
        Entry entry = new Entry(found, file, now);
        if (validNanos > 0) {
            if (entries.size() >= maxEntries && !entries.containsKey(path)) {
                entries.clear();
            }
            entries.put(path, entry);
        }
        return entry;
    }

    /** How many paths are kept now. */
    int size() {
        return entries.size();
    }

    /** The path of a request-target as sent: what comes before its query (or a stray fragment). */
    public static String pathOf(String target) {
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c == '?' || c == '#') {
                return target.substring(0, i);
            }
        }
        return target;
    }
}
