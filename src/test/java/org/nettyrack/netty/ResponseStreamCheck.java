package org.nettyrack.netty;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Reads everything the server wrote on one connection the way a strict HTTP/1.1 client would:
 * status line, header fields, then the body framed by RFC 9112 section 6.3 (none for HEAD, 1xx,
 * 204 and 304; chunked; Content-Length; or up to the close). Reports the first thing such a
 * client would choke on and a response after one that said Connection: close. Final responses
 * must answer the decoded requests one for one, in order (a client matches them by position):
 * the app's answers carry {@code x-request: N}, the server's own (400, 413, 417...) none; a
 * 408 for a request never completed may come last.
 */
final class ResponseStreamCheck {
    /** Who answers a decoded request: the app's request number {@code app}, or the server (-1). */
    record Due(int app, boolean head) {
    }

    private final byte[] out;
    private final List<Due> due;
    private final int appRequests;
    private final Violations violations;
    private int pos;

    private ResponseStreamCheck(byte[] out, List<Due> due, int appRequests, Violations violations) {
        this.out = out;
        this.due = due;
        this.appRequests = appRequests;
        this.violations = violations;
    }

    /**
     * Checks {@code out} against the decoded requests ({@code due}) of which {@code appRequests}
     * reached the app; {@code closed} says whether the connection was closed at the end.
     */
    static void check(byte[] out, List<Due> due, int appRequests, boolean closed, Violations violations) {
        new ResponseStreamCheck(out, due, appRequests, violations).run(closed);
    }

    private void run(boolean closed) {
        int answered = 0;
        int finals = 0;
        while (pos < out.length) {
            int start = pos;
            String status = line();
            if (status == null || !status.matches("HTTP/1\\.1 [1-5][0-9][0-9] [\\x20-\\x7e\\t]*")) {
                fail(Invariant.RESPONSE_SYNTAX, "bad status line at byte " + start, start);
                return;
            }
            int code = Integer.parseInt(status.substring(9, 12));
            Head head = headers();
            if (head == null) {
                return;
            }
            if (code < 200) {
                continue;
            }
            Due expected = finals < due.size() ? due.get(finals) : null;
            finals++;
            if (expected == null) {
                if (code != 408 || head.request != null) {
                    fail(Invariant.RESPONSE_ORDER, "a response to no request", start);
                    return;
                }
            } else if (expected.app() < 0 && head.request != null) {
                fail(Invariant.RESPONSE_ORDER, "x-request " + head.request + " where the server's own answer was due", start);
                return;
            } else if (expected.app() >= 0 && head.request == null) {
                fail(Invariant.OWN_ANSWER_WAITS_ITS_TURN, "the server's own " + code + " where the app's answer to request "
                    + expected.app() + " was due", start);
                return;
            } else if (expected.app() >= 0 && !head.request.equals(Integer.toString(expected.app()))) {
                fail(Invariant.RESPONSE_ORDER, "x-request " + head.request + " where " + expected.app() + " was due", start);
                return;
            }
            boolean toHead = expected != null && expected.head();
            if (head.request != null) {
                answered++;
            }
            if (!body(code, toHead, head, closed, start)) {
                return;
            }
            if (head.close && pos < out.length) {
                fail(Invariant.RESPONSE_FRAMING, "bytes after a Connection: close response", pos);
                return;
            }
        }
        if (answered != appRequests) {
            violations.add(Invariant.RESPONSE_ORDER, appRequests + " requests reached the app, "
                + answered + " responses to them were written");
        }
    }

    private boolean body(int code, boolean toHead, Head head, boolean closed, int start) {
        if (head.transferEncoding != null && head.contentLength != null) {
            return fail(Invariant.RESPONSE_FRAMING, "both Transfer-Encoding and Content-Length", start);
        }
        if (toHead && head.request == null && bodyFollows(head.contentLength)) {
            return fail(Invariant.NO_BODY_FOR_HEAD, "the server's own " + code + " to HEAD carries a body", start);
        }
        if (toHead || code == 204 || code == 304) {
            return true;
        }
        if (head.transferEncoding != null) {
            if (!head.transferEncoding.equalsIgnoreCase("chunked")) {
                return fail(Invariant.RESPONSE_FRAMING, "Transfer-Encoding " + head.transferEncoding, start);
            }
            return chunks(start);
        }
        if (head.contentLength != null) {
            if (!head.contentLength.matches("[0-9]{1,9}")) {
                return fail(Invariant.RESPONSE_FRAMING, "Content-Length " + head.contentLength, start);
            }
            int length = Integer.parseInt(head.contentLength);
            if (out.length - pos < length) {
                return fail(Invariant.RESPONSE_FRAMING, "body shorter than its Content-Length " + length, start);
            }
            pos += length;
            return true;
        }
        if (!closed) {
            return fail(Invariant.RESPONSE_FRAMING, "a close-delimited body on a connection left open", start);
        }
        pos = out.length;
        return true;
    }

    /** Whether the Content-Length's worth of bytes at the read position is a body, not the next response. */
    private boolean bodyFollows(String contentLength) {
        if (contentLength == null || !contentLength.matches("[1-9][0-9]{0,8}")) {
            return false;
        }
        int end = pos + Integer.parseInt(contentLength);
        return end <= out.length && !startsWithStatus(pos) && (end == out.length || startsWithStatus(end));
    }

    private boolean startsWithStatus(int at) {
        return out.length - at >= 9 && new String(out, at, 9, StandardCharsets.ISO_8859_1).equals("HTTP/1.1 ");
    }

    private boolean chunks(int start) {
        while (true) {
            String size = line();
            if (size == null || !size.matches("[0-9a-fA-F]{1,7}")) {
                return fail(Invariant.RESPONSE_FRAMING, "bad chunk size line", start);
            }
            int n = Integer.parseInt(size, 16);
            if (n == 0) {
                String end = line();
                return end != null && end.isEmpty() || fail(Invariant.RESPONSE_FRAMING, "no CRLF after the last chunk", start);
            }
            if (out.length - pos < n + 2 || out[pos + n] != '\r' || out[pos + n + 1] != '\n') {
                return fail(Invariant.RESPONSE_FRAMING, "chunk of " + n + " bytes not followed by CRLF", start);
            }
            pos += n + 2;
        }
    }

    /** The header block after a status line, or null (reported) when malformed. */
    private Head headers() {
        Head head = new Head();
        int start = pos;
        for (String field; (field = line()) != null; ) {
            if (field.isEmpty()) {
                return head;
            }
            int colon = field.indexOf(':');
            if (colon <= 0 || !RecordingApp.isToken(field.substring(0, colon)) || field.indexOf('\0') >= 0) {
                fail(Invariant.RESPONSE_SYNTAX, "bad header field " + RecordingApp.escape(field), start);
                return null;
            }
            String name = field.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = field.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> head.contentLength = head.contentLength == null ? value : "repeated";
                case "transfer-encoding" -> head.transferEncoding = head.transferEncoding == null ? value : "repeated";
                case "connection" -> head.close |= value.toLowerCase(Locale.ROOT).contains("close");
                case "x-request" -> head.request = value;
                default -> { }
            }
        }
        fail(Invariant.RESPONSE_SYNTAX, "header block not terminated", start);
        return null;
    }

    /** The next CRLF-terminated line without its CRLF, or null at the end or at a bare CR/LF. */
    private String line() {
        for (int i = pos; i < out.length; i++) {
            if (out[i] == '\n') {
                if (i == pos || out[i - 1] != '\r') {
                    return null;
                }
                String line = new String(out, pos, i - 1 - pos, StandardCharsets.ISO_8859_1);
                pos = i + 1;
                return line.indexOf('\r') >= 0 ? null : line;
            }
        }
        return null;
    }

    private boolean fail(Invariant invariant, String what, int at) {
        int end = Math.min(out.length, at + 160);
        violations.add(invariant, what + ": "
            + RecordingApp.escape(new String(out, at, end - at, StandardCharsets.ISO_8859_1)));
        return false;
    }

    private static final class Head {
        String contentLength;
        String transferEncoding;
        String request;
        boolean close;
    }
}
