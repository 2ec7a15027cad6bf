package org.nettyrack.core;

/**
 * The syntax of a {@code Host} field (and HTTP/2's {@code :authority}): {@code uri-host [ ":"
 * port ]}, RFC 9110 7.2 with RFC 3986 3.2.2's host (a reg-name, an IPv4 address, or an IP
 * literal in brackets) and 3.2.3's port (digits, possibly none). A server MUST answer 400 to a
 * request whose Host is not this (RFC 9112 3.2), and Rack's {@code SERVER_NAME}, {@code
 * SERVER_PORT} and {@code HTTP_HOST} are taken from it, so nothing else may reach the app.
 */
public final class HostHeader {
    private static final String SUB_DELIMS = "!$&'()*+,;=";

    private HostHeader() {
    }

    /**
     * Whether value is {@code uri-host [ ":" port ]}; an empty value is valid (a URI without
     * authority), a port without a host is not.
     */
    public static boolean valid(String value) {
        int hostEnd;
        if (value.startsWith("[")) {
            hostEnd = value.indexOf(']') + 1;
            if (hostEnd < 3 || !ipLiteral(value, 1, hostEnd - 1)) {
                return false;
            }
        } else {
            int colon = value.indexOf(':');
            hostEnd = colon < 0 ? value.length() : colon;
            if (!regName(value, 0, hostEnd) || hostEnd == 0 && !value.isEmpty()) {
                return false; // a port without a host (":80") is no authority a client sends
            }
        }
        if (hostEnd == value.length()) {
            return true;
        }
        return value.charAt(hostEnd) == ':' && digits(value, hostEnd + 1, value.length());
    }

    /** The port part of a valid value, or null when it names none (no colon, or nothing after it). */
    public static String port(String value) {
        int colon = value.lastIndexOf(':');
        if (colon < 0 || colon < value.lastIndexOf(']') || colon == value.length() - 1) {
            return null;
        }
        return value.substring(colon + 1);
    }

    /** The host part of a valid value. */
    public static String name(String value) {
        int colon = value.lastIndexOf(':');
        return colon < 0 || colon < value.lastIndexOf(']') ? value : value.substring(0, colon);
    }

    /** An address as a URI host: IPv6 in brackets. */
    public static String uriHost(String address) {
        return address.indexOf(':') >= 0 && !address.startsWith("[") ? "[" + address + "]" : address;
    }

    private static boolean regName(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= to || !hex(s.charAt(i + 1)) || !hex(s.charAt(i + 2))) {
                    return false;
                }
                i += 2;
            } else if (!unreserved(c) && SUB_DELIMS.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** An IPv6 address or IPvFuture, loosely: the characters they are made of, at least one. */
    private static boolean ipLiteral(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (!unreserved(c) && c != ':' && SUB_DELIMS.indexOf(c) < 0) {
                return false;
            }
        }
        return to > from;
    }

    private static boolean digits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean unreserved(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~';
    }

    private static boolean hex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }
}
