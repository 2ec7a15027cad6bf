package org.nettyrack.netty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.nettyrack.core.RackHandler;
import org.nettyrack.core.RackRequest;
import org.nettyrack.core.RequestBody;
import org.nettyrack.core.ResponseHeaders;
import org.nettyrack.core.ResponseSink;

/**
 * The application of the fuzz target: checks that every request reaching it is well-formed
 * (RFC 9110/9112 syntax, unambiguous framing), remembers it, and answers each with an
 * {@code x-request: N} header so the response check can match answers to requests. A target containing {@code stream} gets a
 * streamed answer of unknown length (chunked, or close-delimited on HTTP/1.0).
 */
final class RecordingApp implements RackHandler {
    private static final String TCHAR = "!#$%&'*+-.^_`|~";

    private final Violations violations;
    private final List<Rfc9112Reader.Request> seen = new ArrayList<>();

    RecordingApp(Violations violations) {
        this.violations = violations;
    }

    /** The requests the app saw, in order. */
    List<Rfc9112Reader.Request> seen() {
        return seen;
    }

    @Override
    public void handle(RackRequest request, ResponseSink response) {
        Rfc9112Reader.Request got = record(request);
        seen.add(got);
        check(request, got.describe());
        int index = seen.size() - 1;
        ResponseHeaders headers = new ResponseHeaders();
        headers.add("content-type", "text/plain");
        headers.add("x-request", Integer.toString(index));
        byte[] body = ("request " + index + " body " + request.body().length() + "\n").getBytes(StandardCharsets.US_ASCII);
        if (request.target().contains("stream")) {
            response.begin(200, headers, -1);
            try {
                response.write(body, 0, body.length);
            } catch (IOException clientGone) {
                return; // as an app would: stop writing; the sink ends what it can
            }
            response.end();
        } else {
            response.respond(200, headers, body, 0, body.length);
        }
    }

    private void check(RackRequest r, String what) {
        if (!isToken(r.method())) {
            violations.add(Invariant.METHOD_TOKEN, what);
        }
        boolean http11 = "HTTP/1.1".equals(r.protocol());
        if (!http11 && !"HTTP/1.0".equals(r.protocol())) {
            violations.add(Invariant.VERSION_SUPPORTED, what);
        }
        String targetProblem = targetProblem(r.method(), r.target());
        if (targetProblem != null) {
            violations.add(Invariant.TARGET_FORM, targetProblem + ": " + what);
        }
        Fields fields = new Fields();
        r.forEachHeader((name, value) -> fields.add(name.toString(), value.toString()));
        if (!fields.badNames.isEmpty()) {
            violations.add(Invariant.HEADER_NAME_TOKEN, fields.badNames + ": " + what);
        }
        if (!fields.badValues.isEmpty()) {
            violations.add(Invariant.HEADER_VALUE_CLEAN, fields.badValues + ": " + what);
        }
        if (!fields.untrimmed.isEmpty()) {
            violations.add(Invariant.HEADER_VALUE_TRIMMED, fields.untrimmed + ": " + what);
        }
        if (fields.hosts > 1 || (http11 && fields.hosts != 1)) {
            violations.add(Invariant.ONE_HOST, fields.hosts + " Host fields: " + what);
        }
        if (fields.transferEncodings.size() > 1
            || (fields.transferEncodings.size() == 1 && !fields.transferEncodings.get(0).trim().equalsIgnoreCase("chunked"))) {
            violations.add(Invariant.TRANSFER_ENCODING_CHUNKED, fields.transferEncodings + ": " + what);
        }
        if (!fields.transferEncodings.isEmpty() && !fields.contentLengths.isEmpty()) {
            violations.add(Invariant.CONTENT_LENGTH_OR_TRANSFER_ENCODING, what);
        }
        checkBody(r.body(), fields, what);
    }

    private void checkBody(RequestBody body, Fields fields, String what) {
        if (!body.inMemory()) {
            try {
                if (Files.size(body.file()) != body.length()) {
                    violations.add(Invariant.BODY_LENGTH, "spooled file size differs from the body length: " + what);
                }
            } catch (IOException e) {
                violations.add(Invariant.BODY_LENGTH, "spooled body unreadable (" + e + "): " + what);
            }
        }
        if (!fields.transferEncodings.isEmpty()) {
            return;
        }
        if (fields.contentLengths.isEmpty()) {
            if (body.length() != 0) {
                violations.add(Invariant.BODY_LENGTH, "a body without Content-Length or Transfer-Encoding: " + what);
            }
            return;
        }
        String declared = fields.contentLengths.get(0).trim();
        if (fields.contentLengths.size() > 1) {
            violations.add(Invariant.ONE_CONTENT_LENGTH, "Content-Length " + fields.contentLengths + ": " + what);
        } else if (declared.isEmpty() || !declared.chars().allMatch(c -> c >= '0' && c <= '9')) {
            violations.add(Invariant.BODY_LENGTH, "Content-Length " + fields.contentLengths + ": " + what);
        } else if (declared.length() > 18 || Long.parseLong(declared) != body.length()) {
            violations.add(Invariant.BODY_LENGTH, "Content-Length " + declared + " but " + body.length() + " bytes: " + what);
        }
    }

    private static Rfc9112Reader.Request record(RackRequest r) {
        List<String> fields = new ArrayList<>();
        r.forEachHeader((name, value) -> fields.add(name + ": " + value));
        RequestBody body = r.body();
        byte[] bytes;
        try {
            bytes = body.inMemory() ? Arrays.copyOf(body.bytes(), (int) body.length()) : Files.readAllBytes(body.file());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Rfc9112Reader.Request(r.method(), r.target(), r.protocol(), fields, bytes);
    }

    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!alnum && TCHAR.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Null when the target is in origin, absolute (http/https with a host) or asterisk form. */
    static String targetProblem(String method, String target) {
        if (target.isEmpty()) {
            return "empty target";
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                return String.format("byte 0x%02x in the target", (int) c);
            }
        }
        if (target.charAt(0) == '/') {
            return null;
        }
        if (target.equals("*")) {
            return method.equals("OPTIONS") ? null : "asterisk form with " + method;
        }
        String lower = target.toLowerCase(Locale.ROOT);
        int authority = lower.startsWith("http://") ? 7 : lower.startsWith("https://") ? 8 : -1;
        if (authority < 0) {
            return "neither origin, absolute nor asterisk form";
        }
        if (authority == target.length() || "/?#@:".indexOf(target.charAt(authority)) >= 0) {
            return "absolute form without a host";
        }
        return null;
    }

    static String escape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && i < 400; i++) {
            char c = s.charAt(i);
            out.append(c >= ' ' && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return s.length() > 400 ? out + "..." : out.toString();
    }

    /** The header fields that matter for framing, and the malformed ones. */
    private static final class Fields {
        int hosts;
        final List<String> contentLengths = new ArrayList<>();
        final List<String> transferEncodings = new ArrayList<>();
        final List<String> badNames = new ArrayList<>();
        final List<String> badValues = new ArrayList<>();
        final List<String> untrimmed = new ArrayList<>();

        void add(String name, String value) {
            if (!isToken(name)) {
                badNames.add(escape(name));
            }
            if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
                badValues.add(escape(name) + ": " + escape(value));
            }
            if (!value.isEmpty() && (" \t".indexOf(value.charAt(0)) >= 0 || " \t".indexOf(value.charAt(value.length() - 1)) >= 0)) {
                untrimmed.add(escape(name) + ": '" + escape(value) + "'");
            }
            switch (name.toLowerCase(Locale.ROOT)) {
                case "host" -> hosts++;
                case "content-length" -> contentLengths.add(value);
                case "transfer-encoding" -> transferEncodings.add(value);
                default -> { }
            }
        }
    }
}
