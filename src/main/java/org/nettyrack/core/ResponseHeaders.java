package org.nettyrack.core;

import java.util.Arrays;

/**
 * Response header fields in the order the application gave them, a repeated name once per
 * value (several {@code set-cookie} fields stay separate). Names are compared without case.
 */
public final class ResponseHeaders {
    private String[] names = new String[8];
    private String[] values = new String[8];
    private int size;

    public void add(String name, String value) {
        if (size == names.length) {
            names = Arrays.copyOf(names, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        names[size] = name;
        values[size] = value;
        size++;
    }

    public int size() {
        return size;
    }

    public String name(int i) {
        return names[i];
    }

    public String value(int i) {
        return values[i];
    }

    /** The first value of {@code name}, or null. */
    public String get(String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                return values[i];
            }
        }
        return null;
    }

    public boolean contains(String name) {
        return get(name) != null;
    }

    /** The first {@code content-length} as a number, or -1 when there is none or it is not a number. */
    public long contentLength() {
        String value = get("content-length");
        if (value == null) {
            return -1;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Removes every field called {@code name}. */
    public void remove(String name) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (!names[i].equalsIgnoreCase(name)) {
                names[kept] = names[i];
                values[kept] = values[i];
                kept++;
            }
        }
        Arrays.fill(names, kept, size, null);
        Arrays.fill(values, kept, size, null);
        size = kept;
    }
}
