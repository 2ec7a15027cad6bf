package org.nettyrack.core;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A request's id, for the logs of every hop to name it alike: the {@code X-Request-Id} a proxy
 * (or a client) sent, when there is exactly one and it is sane (1 to 200 characters of visible
 * ASCII, no space, no quotes, no backslash), else one made here: 32 lowercase hex digits, 128
 * random bits. The transport computes it once per request ({@link RackRequest#requestId}); the
 * env carries it as {@code HTTP_X_REQUEST_ID} (Rails' {@code ActionDispatch::RequestId} takes it
 * from there), the response as {@code x-request-id} unless the application set one
 * ({@link #answer}), and the JSON access log as {@code request_id}.
 */
public final class RequestId {
    /** The header's name, as responses carry it. */
    public static final String HEADER = "x-request-id";
    static final int MAX_LENGTH = 200;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private RequestId() {
    }

    /** The id of a request that sent these {@code X-Request-Id} values (empty: none): the one it sent, or a new one. */
    public static String of(List<String> sent) {
        return sent.size() == 1 && sane(sent.get(0)) ? sent.get(0) : make();
    }

    /** Whether the request's own id is the one to keep; false when it sent none, several, or an insane one. */
    public static boolean kept(RackRequest request) {
        return request.requestId().equals(request.header(HEADER));
    }

    /** 1 to 200 characters from '!' to '~', without '"', '\'' or '\\'. */
    public static boolean sane(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c > '~' || c == '"' || c == '\'' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /** 32 lowercase hex digits from a thread-local generator: unique enough to name a request, no secret. */
    public static String make() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] id = new char[32];
        fill(id, 0, random.nextLong());
        fill(id, 16, random.nextLong());
        return new String(id);
    }

    private static void fill(char[] into, int at, long bits) {
        for (int i = 15; i >= 0; i--) {
            into[at + i] = HEX[(int) (bits & 0xf)];
            bits >>>= 4;
        }
    }

    /** Adds {@code x-request-id: id} to a response's headers, unless the application gave its own. */
    public static void answer(ResponseHeaders headers, String id) {
        if (!headers.contains(HEADER)) {
            headers.add(HEADER, id);
        }
    }
}
