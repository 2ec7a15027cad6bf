package org.nettyrack.netty;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The fuzz target's reference parser: reads the bytes a client sent as HTTP/1.1 requests by
 * the letter of RFC 9112, CRLF line endings only, and stops at the first thing that is not.
 * {@link #compare} then holds the server to it: each request the app saw must be the next one
 * read here, field for field and byte for byte (a request the server answered itself, such as
 * an unsupported {@code Expect}, may be skipped). A request the server delivered beyond where
 * this reader stopped is a leniency, charged to the invariant of the rule that stopped it;
 * one delivered differently is a desync.
 *
 * <p>Allowed leniencies it shares with the server: empty lines before a request line,
 * whitespace runs between request-line words, obs-fold replaced by a space (RFC 9112 3, 5.2).
 */
final class Rfc9112Reader {
    /** A request as sent: fields as {@code name: value} with the value's OWS trimmed. */
    record Request(String method, String target, String version, List<String> fields, byte[] body) {
        List<String> all(String name) {
            List<String> values = new ArrayList<>();
            for (String field : fields) {
                int colon = field.indexOf(':');
                if (field.substring(0, colon).equalsIgnoreCase(name)) {
                    values.add(field.substring(colon + 2));
                }
            }
            return values;
        }

        String header(String name) {
            List<String> values = all(name);
            return values.isEmpty() ? null : values.get(0);
        }

        Request withBody(byte[] bytes) {
            return new Request(method, target, version, fields, bytes);
        }

        String describe() {
            return RecordingApp.escape(method + " " + target + " " + version + " | " + String.join(" | ", fields))
                + " | body " + body.length;
        }
    }

    private static final String TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
    private static final Pattern REQUEST_LINE =
        Pattern.compile("[ \\t\\x0b\\x0c]*(" + TOKEN + ")[ \\t\\x0b\\x0c]+([\\x21-\\x7e]+)[ \\t\\x0b\\x0c]+([A-Za-z]+/[0-9]+\\.[0-9]+)[ \\t\\x0b\\x0c]*");
    private static final Pattern CHUNK_LINE = Pattern.compile("([0-9A-Fa-f]+)((?:[ \\t]*;[ \\t]*" + TOKEN
        + "(?:[ \\t]*=[ \\t]*(?:" + TOKEN + "|\"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*\"))?)*)");

    private final byte[] in;
    private int pos;
    private final List<Request> requests = new ArrayList<>();
    private Invariant stoppedBy;
    private String why;

    private Rfc9112Reader(byte[] in) {
        this.in = in;
    }

    /** Checks the requests the app saw, in order, against the bytes the client sent. */
    static void compare(byte[] sent, List<Request> seen, Violations violations) {
        Rfc9112Reader reader = new Rfc9112Reader(sent);
        reader.readAll();
        int next = 0;
        for (Request app : seen) {
            while (next < reader.requests.size() && !same(reader.requests.get(next), app)
                && reader.requests.get(next).header("expect") != null) {
                next++;
            }
            if (next >= reader.requests.size()) {
                Invariant charged = reader.stoppedBy != null ? reader.stoppedBy : Invariant.SAME_AS_SENT;
                violations.add(charged, "the app got " + app.describe() + " where a strict reader "
                    + (reader.stoppedBy != null ? "stopped: " + reader.why : "found no further request"));
                return;
            }
            Request wire = reader.requests.get(next++);
            if (!same(wire, app)) {
                violations.add(Invariant.SAME_AS_SENT, "sent " + wire.describe() + ", the app got " + app.describe());
                return;
            }
        }
    }

    /**
     * Equal but for Expect, which the server consumes once it answered it (100 Continue), and for
     * whitespace: an obs-fold may become "one or more SP" (RFC 9112 5.2), and whitespace it leaves
     * at a value's end is {@link Invariant#HEADER_VALUE_TRIMMED}'s business.
     */
    private static boolean same(Request a, Request b) {
        return a.method.equals(b.method) && a.target.equals(b.target) && a.version.equals(b.version)
            && comparable(a.fields).equals(comparable(b.fields)) && Arrays.equals(a.body, b.body);
    }

    private static List<String> comparable(List<String> fields) {
        return fields.stream().filter(f -> !f.regionMatches(true, 0, "expect:", 0, 7))
            .map(f -> f.replaceAll("[ \\t]+", " ").strip()).toList();
    }

    private void readAll() {
        try {
            while (true) {
                while (startsWith("\r\n")) {
                    pos += 2;
                }
                if (pos >= in.length) {
                    return;
                }
                requests.add(request());
            }
        } catch (Stop stop) {
            stoppedBy = stop.invariant;
            why = stop.getMessage();
        } catch (Incomplete end) {
            // The input ended inside a request: nothing more to read.
        }
    }

    private Request request() {
        String line = line();
        var m = REQUEST_LINE.matcher(line);
        if (!m.matches()) {
            throw new Stop(Invariant.REQUEST_LINE_SYNTAX, "request line " + RecordingApp.escape(line));
        }
        if (!m.group(3).matches("HTTP/[0-9]\\.[0-9]")) {
            throw new Stop(Invariant.VERSION_SUPPORTED, "HTTP-version " + RecordingApp.escape(m.group(3)));
        }
        List<String> fields = fields();
        Request head = new Request(m.group(1), m.group(2), m.group(3), fields, new byte[0]);
        List<String> te = head.all("transfer-encoding");
        List<String> cl = head.all("content-length");
        if (!te.isEmpty() && !cl.isEmpty()) {
            throw new Stop(Invariant.CONTENT_LENGTH_OR_TRANSFER_ENCODING, "both framings");
        }
        if (!te.isEmpty()) {
            if (te.size() > 1 || !te.get(0).equalsIgnoreCase("chunked")) {
                throw new Stop(Invariant.TRANSFER_ENCODING_CHUNKED, "Transfer-Encoding " + te);
            }
            return head.withBody(chunks());
        }
        if (cl.isEmpty()) {
            return head;
        }
        if (cl.size() > 1 || cl.get(0).contains(",")) {
            throw new Stop(Invariant.ONE_CONTENT_LENGTH, "Content-Length " + cl);
        }
        if (!cl.get(0).matches("[0-9]{1,9}")) {
            throw new Stop(Invariant.BODY_LENGTH, "Content-Length " + cl);
        }
        int length = Integer.parseInt(cl.get(0));
        if (in.length - pos < length) {
            throw new Incomplete();
        }
        pos += length;
        return head.withBody(Arrays.copyOfRange(in, pos - length, pos));
    }

    private List<String> fields() {
        List<String> fields = new ArrayList<>();
        for (String line; !(line = line()).isEmpty(); ) {
            if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                if (fields.isEmpty()) {
                    throw new Stop(Invariant.FIELD_SYNTAX, "whitespace before the first field");
                }
                String last = fields.remove(fields.size() - 1);
                fields.add((last + " " + line.strip()).strip());
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || !line.substring(0, colon).matches(TOKEN)) {
                throw new Stop(Invariant.FIELD_SYNTAX, "field line " + RecordingApp.escape(line));
            }
            String value = line.substring(colon + 1).replaceAll("^[ \\t]+|[ \\t]+$", "");
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c != '\t' && (c < 0x20 || c == 0x7f)) {
                    throw new Stop(Invariant.FIELD_SYNTAX, "control byte in " + RecordingApp.escape(line));
                }
            }
            fields.add(line.substring(0, colon) + ": " + value);
        }
        return fields;
    }

    private byte[] chunks() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String line = line();
            var m = CHUNK_LINE.matcher(line);
            if (!m.matches()) {
                throw new Stop(Invariant.CHUNKED_SYNTAX, "chunk-size line " + RecordingApp.escape(line));
            }
            String digits = m.group(1).replaceFirst("^0+(?=.)", "");
            if (digits.length() > 8) {
                throw new Stop(Invariant.CHUNKED_SYNTAX, "chunk size " + m.group(1));
            }
            long size = Long.parseLong(digits, 16);
            if (size == 0) {
                fields(); // the trailer section: syntax checked, content not passed to the app
                return body.toByteArray();
            }
            if (in.length - pos < size + 2) {
                throw new Incomplete();
            }
            body.write(in, pos, (int) size);
            pos += (int) size;
            if (in[pos] != '\r' || in[pos + 1] != '\n') {
                throw new Stop(Invariant.CHUNKED_SYNTAX, "chunk data not followed by CRLF");
            }
            pos += 2;
        }
    }

    /** The next line without its CRLF; a bare CR or LF stops the reader. */
    private String line() {
        for (int i = pos; i < in.length; i++) {
            if (in[i] == '\n' || (in[i] == '\r' && i + 1 < in.length && in[i + 1] != '\n')) {
                throw new Stop(Invariant.CRLF_LINE_ENDINGS, "bare " + (in[i] == '\n' ? "LF" : "CR")
                    + " after " + RecordingApp.escape(new String(in, pos, i - pos, StandardCharsets.ISO_8859_1)));
            }
            if (in[i] == '\r' && i + 1 < in.length) {
                String line = new String(in, pos, i - pos, StandardCharsets.ISO_8859_1);
                pos = i + 2;
                return line;
            }
        }
        throw new Incomplete();
    }

    private boolean startsWith(String s) {
        return in.length - pos >= s.length() && new String(in, pos, s.length(), StandardCharsets.ISO_8859_1).equals(s);
    }

    private static final class Stop extends RuntimeException {
        final Invariant invariant;

        Stop(Invariant invariant, String why) {
            super(why, null, false, false);
            this.invariant = invariant;
        }
    }

    private static final class Incomplete extends RuntimeException {
        Incomplete() {
            super(null, null, false, false);
        }
    }
}
