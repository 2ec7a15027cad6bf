package org.nettyrack.core;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * A small streaming JSON writer (RFC 8259) for the control endpoint and the JSON access log:
 * objects, arrays, strings, numbers, booleans and null, compact, into a StringBuilder. It adds
 * the commas and escapes strings: quote, backslash and every control character; lone
 * surrogates become U+FFFD, so the output is always valid UTF-8 once encoded. Misuse (a value
 * where a name is due, an unclosed object) throws {@link IllegalStateException}.
 *
 * <pre>
 * new Json().beginObject().name("status").value(200).name("path").value("/a").endObject().toString()
 * // {"status":200,"path":"/a"}
 * </pre>
 */
public final class Json {
    private enum Scope { OBJECT_NAME, OBJECT_VALUE, ARRAY }

    private final StringBuilder out = new StringBuilder();
    private final Deque<Scope> scopes = new ArrayDeque<>();
    private final Deque<Boolean> empty = new ArrayDeque<>();
    private boolean done;

    public Json beginObject() {
        beforeValue();
        out.append('{');
        push(Scope.OBJECT_NAME);
        return this;
    }

    public Json endObject() {
        if (scopes.peek() != Scope.OBJECT_NAME) {
            throw new IllegalStateException("no object to end here");
        }
        return pop('}');
    }

    public Json beginArray() {
        beforeValue();
        out.append('[');
        push(Scope.ARRAY);
        return this;
    }

    public Json endArray() {
        if (scopes.peek() != Scope.ARRAY) {
            throw new IllegalStateException("no array to end here");
        }
        return pop(']');
    }

    public Json name(String name) {
        if (scopes.peek() != Scope.OBJECT_NAME) {
            throw new IllegalStateException("a name belongs inside an object, before its value");
        }
        comma();
        string(name);
        out.append(':');
        scopes.pop();
        scopes.push(Scope.OBJECT_VALUE);
        return this;
    }

    public Json value(String text) {
        if (text == null) {
            return nullValue();
        }
        beforeValue();
        string(text);
        return this;
    }

    public Json value(long number) {
        beforeValue();
        out.append(number);
        return this;
    }

    /** A finite number in plain notation; NaN and the infinities, which JSON lacks, become null. */
    public Json value(double number, int decimals) {
        if (Double.isNaN(number) || Double.isInfinite(number)) {
            return nullValue();
        }
        beforeValue();
        out.append(String.format(Locale.ROOT, "%." + decimals + "f", number));
        return this;
    }

    public Json value(boolean flag) {
        beforeValue();
        out.append(flag);
        return this;
    }

    public Json nullValue() {
        beforeValue();
        out.append("null");
        return this;
    }

    /** The document; throws while an object or array is still open. */
    @Override
    public String toString() {
        if (!scopes.isEmpty() || !done) {
            throw new IllegalStateException("the JSON document is not complete");
        }
        return out.toString();
    }

    private void beforeValue() {
        Scope scope = scopes.peek();
        if (scope == null) {
            if (done) {
                throw new IllegalStateException("a JSON document has one top-level value");
            }
            done = true;
        } else if (scope == Scope.OBJECT_NAME) {
            throw new IllegalStateException("an object member needs a name first");
        } else if (scope == Scope.OBJECT_VALUE) {
            scopes.pop();
            scopes.push(Scope.OBJECT_NAME);
        } else {
            comma();
        }
    }

    private void comma() {
        if (!empty.pop()) {
            out.append(',');
        }
        empty.push(false);
    }

    private void push(Scope scope) {
        scopes.push(scope);
        empty.push(true);
    }

    private Json pop(char close) {
        scopes.pop();
        empty.pop();
        out.append(close);
        return this;
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029') {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        out.append('\uFFFD');
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
