package org.nettyrack.core.warmup;

import java.util.List;

/**
 * What a warm-up runs through the application before the server accepts connections: the
 * requests the user named (in turn, over and over), on how many connections at once, with
 * which {@code Host}, and its bounds: at most {@code maxMillis}, at most {@code maxRequests}
 * answers (0: no count), and sooner once throughput stops rising ({@link WarmupProgress}).
 */
public record WarmupPlan(List<Request> requests, int connections, String host, long maxMillis, long maxRequests) {
    /** One request, as a client would send it. */
    public record Request(String method, String target, List<Header> headers, byte[] body) {
        public Request {
            headers = List.copyOf(headers);
            body = body == null ? new byte[0] : body;
        }

        /** "GET /products/1", as the warm-up's report names it. */
        public String describe() {
            return method + " " + target;
        }
    }

    public record Header(String name, String value) {
    }

    public WarmupPlan {
        requests = List.copyOf(requests);
        if (requests.isEmpty()) {
            throw new IllegalArgumentException("a warm-up needs at least one request");
        }
        if (connections < 1 || maxMillis < 1 || maxRequests < 0) {
            throw new IllegalArgumentException("a warm-up needs a connection, a time and a count of at least 0");
        }
    }
}
