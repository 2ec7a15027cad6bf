package org.nettyrack.core.files;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which file under a public directory a request-target names, and the path-safety rules that
 * keep every answer inside it. A transport asks {@link #lookup} with the raw target and serves
 * the {@link Lookup#file} of a {@link Found#FILE}; anything else either goes on to the
 * application ({@link Found#PASS}) or is refused as it is.
 *
 * <ul>
 * <li>"..", "." or NUL anywhere in the path, raw or percent-encoded, and malformed percent
 * escapes: {@link Found#BAD_REQUEST};</li>
 * <li>an encoded "/" or "\" ({@code %2f}, {@code %5c}) or a raw "\": not a file name here, so
 * {@link Found#PASS} (applications may route such paths);</li>
 * <li>a segment starting with "." (dotfiles, {@code .git/}): {@link Found#PASS} unless
 * dotfiles are allowed;</li>
 * <li>a directory or a missing file: {@link Found#PASS}; directories are never listed;</li>
 * <li>a file whose real path (symlinks resolved) is outside the directory: {@link Found#NOT_FOUND}.</li>
 * </ul>
 */
public final class PublicDir {
    public enum Found { FILE, PASS, BAD_REQUEST, NOT_FOUND }

    /** The outcome, and the file for {@link Found#FILE}. */
    public record Lookup(Found found, Path file) {
        static final Lookup PASS = new Lookup(Found.PASS, null);
        static final Lookup BAD_REQUEST = new Lookup(Found.BAD_REQUEST, null);
        static final Lookup NOT_FOUND = new Lookup(Found.NOT_FOUND, null);
    }

    private final Path root;
    private final boolean dotfiles;

    /** {@code dir} must be an existing directory; {@code dotfiles} serves names starting with ".". */
    public PublicDir(Path dir, boolean dotfiles) throws IOException {
        this.root = dir.toRealPath();
        if (!Files.isDirectory(root)) {
            throw new IOException(dir + " is not a directory");
        }
        this.dotfiles = dotfiles;
    }

    public Path root() {
        return root;
    }

    /** The file {@code target} (a request-target as sent) names; see the class comment. */
    public Lookup lookup(String target) {
        int end = target.length();
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        if (end == 0 || target.charAt(0) != '/') {
            return Lookup.PASS; // absolute-form or asterisk-form: the application's business
        }
        String raw = target.substring(0, end);
        String path = decode(raw);
        if (path == null || path.indexOf('\0') >= 0) {
            return Lookup.BAD_REQUEST;
        }
        boolean encodedSeparator = raw.indexOf('\\') >= 0 || path.indexOf('\\') >= 0
            || path.split("/", -1).length != raw.split("/", -1).length;
        StringBuilder relative = new StringBuilder(path.length());
        for (String segment : path.replace('\\', '/').split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            if (segment.equals("..") || segment.equals(".")) {
                return Lookup.BAD_REQUEST;
            }
            if (segment.startsWith(".") && !dotfiles) {
                return Lookup.PASS;
            }
            relative.append(relative.length() == 0 ? "" : "/").append(segment);
        }
        if (encodedSeparator || relative.length() == 0 || path.endsWith("/")) {
            return Lookup.PASS;
        }
        return resolve(relative.toString());
    }

    private Lookup resolve(String relative) {
        Path candidate;
        try {
            candidate = root.resolve(relative);
        } catch (java.nio.file.InvalidPathException e) {
            return Lookup.BAD_REQUEST;
        }
        if (!Files.isRegularFile(candidate)) {
            return Lookup.PASS;
        }
        try {
            Path real = candidate.toRealPath();
            return real.startsWith(root) ? new Lookup(Found.FILE, real) : Lookup.NOT_FOUND;
        } catch (IOException e) {
            return Lookup.PASS;
        }
    }

    /** Percent-decodes a path as UTF-8 ("+" stays "+"); null when malformed. */
    static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                if (i + 2 >= raw.length()) {
                    return null;
                }
                int hi = Character.digit(raw.charAt(i + 1), 16);
                int lo = Character.digit(raw.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c < 0x80) {
                out.write(c);
            } else {
                byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(bytes, 0, bytes.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(java.nio.ByteBuffer.wrap(out.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
