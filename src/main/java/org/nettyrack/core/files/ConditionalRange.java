package org.nettyrack.core.files;

import java.util.function.Function;
import org.nettyrack.core.HttpDate;

/**
 * How to answer a GET or HEAD for a file whose length, modification time and validator are
 * known, from the request's conditional and range headers (RFC 9110 sections 13 and 14):
 * <ol>
 * <li>If-None-Match (a weak comparison, "*" matches any) or, without it, If-Modified-Since
 * not older than the file: 304;</li>
 * <li>one {@code bytes=} Range (first-last, first-, -suffix), honoured when If-Range is absent
 * or names this file's strong ETag or exact Last-Modified: 206 with Content-Range, or 416
 * with {@code Content-Range: bytes *}{@code /length} when no byte of it is in the file;
 * several ranges, or another unit, are answered with the whole file;</li>
 * <li>otherwise 200 with the whole file.</li>
 * </ol>
 * {@code header} looks up a request header by name (case-insensitive), null when absent.
 */
public record ConditionalRange(int status, long offset, long length, String contentRange) {

    public static ConditionalRange decide(Function<String, String> header, boolean get, long fileLength,
                                          long lastModifiedMillis, String etag) {
        String ifNoneMatch = header.apply("if-none-match");
        if (ifNoneMatch != null) {
            if (etag != null && matches(ifNoneMatch, etag)) {
                return new ConditionalRange(304, 0, 0, null);
            }
        } else {
            String since = header.apply("if-modified-since");
            long seconds = since == null ? -1 : HttpDate.parseSeconds(since);
            if (seconds >= 0 && lastModifiedMillis / 1000 <= seconds) {
                return new ConditionalRange(304, 0, 0, null);
            }
        }
        String range = get ? header.apply("range") : null;
        if (range != null && rangeApplies(header.apply("if-range"), lastModifiedMillis, etag)) {
            ConditionalRange partial = range(range.trim(), fileLength);
            if (partial != null) {
                return partial;
            }
        }
        return new ConditionalRange(200, 0, fileLength, null);
    }

    /** The 206 or 416 for a single byte range, or null to answer with the whole file. */
    static ConditionalRange range(String range, long fileLength) {
        if (!range.regionMatches(true, 0, "bytes=", 0, 6) || range.indexOf(',') >= 0) {
            return null;
        }
        String spec = range.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        long first;
        long last;
        try {
            if (dash == 0) {
                long suffix = Long.parseLong(spec.substring(1));
                if (suffix <= 0) {
                    return unsatisfiable(fileLength);
                }
                first = Math.max(0, fileLength - suffix);
                last = fileLength - 1;
            } else {
                first = Long.parseLong(spec.substring(0, dash));
                String end = spec.substring(dash + 1);
                last = end.isEmpty() ? fileLength - 1 : Math.min(Long.parseLong(end), fileLength - 1);
                if (!end.isEmpty() && Long.parseLong(end) < first) {
                    return null; // invalid range: ignored (RFC 9110 14.1.1)
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
        if (first < 0) {
            return null;
        }
        if (first >= fileLength) {
            return unsatisfiable(fileLength);
        }
        return new ConditionalRange(206, first, last - first + 1, "bytes " + first + "-" + last + "/" + fileLength);
    }

    private static ConditionalRange unsatisfiable(long fileLength) {
        return new ConditionalRange(416, 0, 0, "bytes */" + fileLength);
    }

    private static boolean rangeApplies(String ifRange, long lastModifiedMillis, String etag) {
        if (ifRange == null) {
            return true;
        }
        String value = ifRange.trim();
        if (value.startsWith("\"")) {
            return value.equals(etag); // strong comparison: never a weak tag
        }
        long seconds = HttpDate.parseSeconds(value);
        return seconds >= 0 && seconds == lastModifiedMillis / 1000;
    }

    /** Whether an If-None-Match list names {@code etag}, comparing weakly. */
    static boolean matches(String list, String etag) {
        String tag = opaque(etag);
        for (String candidate : list.split(",")) {
            String c = candidate.trim();
            if (c.equals("*") || opaque(c).equals(tag)) {
                return true;
            }
        }
        return false;
    }

    private static String opaque(String etag) {
        return etag.startsWith("W/") ? etag.substring(2) : etag;
    }

    /** A validator from length and modification time, nginx's shape: {@code "mtime-length"} in hex. */
    public static String etag(long lastModifiedMillis, long length, String encoding) {
        return "\"" + Long.toHexString(lastModifiedMillis / 1000) + "-" + Long.toHexString(length)
            + (encoding == null ? "" : "-" + encoding) + "\"";
    }
}
