package org.nettyrack.core.push;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Formats Server-Sent Events (HTML Living Standard, "Parsing an event stream"): optional
 * {@code id:}, {@code event:} and {@code retry:} fields, then the data with one {@code data:}
 * line per line of it (CRLF, CR and LF all end a line, as the client's parser reads them),
 * then a blank line. {@link #COMMENT} is the keep-alive that proxies see as traffic.
 */
public final class SseEvent {
    /** A comment line and blank line: ignored by clients, keeps idle streams alive. */
    public static final byte[] COMMENT = ":\n\n".getBytes(StandardCharsets.US_ASCII);

    private SseEvent() {
    }

    /** The last message made into an event on this thread, and the event. */
    private static final ThreadLocal<Object[]> LAST = ThreadLocal.withInitial(() -> new Object[2]);

    /**
     * A published message as one event, with its id when it has one. Made once per message on
     * a thread: a broadcast hands each I/O thread its subscribers in turn, so they all send the
     * same array, which the transport then need not copy for each of them.
     */
    public static byte[] of(PubSub.Message message) {
        Object[] last = LAST.get();
        if (last[0] != message) {
            last[1] = format(message.id() == null ? null : message.id().toString(), null, -1, message.data());
            last[0] = message;
        }
        return (byte[]) last[1];
    }

    /** The data as one event with no other fields. */
    public static byte[] data(byte[] data) {
        return format(null, null, -1, data);
    }

    /**
     * One event. {@code id} and {@code event} may be null (omitted) but must not hold a line
     * break; {@code retryMillis} below 0 is omitted; {@code data} may be null for an event
     * that only sets fields.
     */
    public static byte[] format(String id, String event, long retryMillis, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream((data == null ? 0 : data.length) + 32);
        field(out, "id", id);
        field(out, "event", event);
        if (retryMillis >= 0) {
            field(out, "retry", Long.toString(retryMillis));
        }
        if (data != null) {
            int start = 0;
            for (int i = 0; i <= data.length; i++) {
                boolean end = i == data.length;
                if (end || data[i] == '\n' || data[i] == '\r') {
                    out.write('d'); out.write('a'); out.write('t'); out.write('a'); out.write(':'); out.write(' ');
                    out.write(data, start, i - start);
                    out.write('\n');
                    if (!end && data[i] == '\r' && i + 1 < data.length && data[i + 1] == '\n') {
                        i++;
                    }
                    start = i + 1;
                }
            }
        }
        out.write('\n');
        return out.toByteArray();
    }

    /**
     * Where a reconnecting event stream wants to resume: its {@code Last-Event-ID} header (what
     * browsers send), else a {@code last_event_id} query parameter (for clients that cannot set
     * headers); null when neither is given or the parameter is malformed.
     */
    public static String lastEventId(String header, String query) {
        if (header != null && !header.isEmpty()) {
            return header;
        }
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith("last_event_id=")) {
                try {
                    String value = java.net.URLDecoder.decode(pair.substring(14), StandardCharsets.UTF_8);
                    return value.isEmpty() ? null : value;
                } catch (IllegalArgumentException malformed) {
                    return null;
                }
            }
        }
        return null;
    }

    private static void field(ByteArrayOutputStream out, String name, String value) {
        if (value == null) {
            return;
        }
        if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0 || (name.equals("id") && value.indexOf('\0') >= 0)) {
            throw new IllegalArgumentException("SSE " + name + " must not contain a line break: " + value);
        }
        byte[] bytes = (name + ": " + value + "\n").getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
    }
}
