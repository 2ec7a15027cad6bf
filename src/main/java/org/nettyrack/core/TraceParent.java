package org.nettyrack.core;

/**
 * A W3C Trace Context {@code traceparent} header (https://www.w3.org/TR/trace-context/, 3.2):
 * {@code version-traceid-parentid-flags}, as in
 * {@code 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01}. The version is two hex
 * digits other than {@code ff}; the trace id 32 and the parent id 16 hex digits, neither all
 * zeros; the flags two hex digits, whose lowest bit is "sampled". All hex is lowercase. Version
 * {@code 00} is exactly 55 characters; a later version may carry more after a further
 * {@code -}, which is ignored, as the spec asks of a version it does not know. The server only
 * reads it: the env gets its parts ({@code nettyrack.trace_id}, {@code nettyrack.parent_id},
 * {@code nettyrack.trace_sampled}); {@code traceparent} and {@code tracestate} stay as sent.
 */
public record TraceParent(String traceId, String parentId, boolean sampled) {
    private static final int LENGTH = 55;

    /** The parts of a valid header; null for null, several values joined, or anything invalid (never an error). */
    public static TraceParent parse(String value) {
        if (value == null || value.length() < LENGTH) {
            return null;
        }
        String version = value.substring(0, 2);
        if (!hex(value, 0, 2) || version.equals("ff") || value.charAt(2) != '-' || value.charAt(35) != '-'
            || value.charAt(52) != '-') {
            return null;
        }
        if (value.length() > LENGTH && (version.equals("00") || value.charAt(LENGTH) != '-')) {
            return null;
        }
        if (!hex(value, 3, 35) || !hex(value, 36, 52) || !hex(value, 53, 55) || zeros(value, 3, 35) || zeros(value, 36, 52)) {
            return null;
        }
        int flags = Character.digit(value.charAt(54), 16);
        return new TraceParent(value.substring(3, 35), value.substring(36, 52), (flags & 1) == 1);
    }

    private static boolean hex(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zeros(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }
}
