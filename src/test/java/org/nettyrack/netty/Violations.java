package org.nettyrack.netty;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.EnumMap;
import java.util.Map;

/**
 * The invariants one fuzz input broke, with what was seen. {@link #verdict()} fails the input
 * on any violation that is not a tolerated known gap; an input that broke only known gaps
 * passes, and is counted in {@link #toleratedSummary()} (printed once per run).
 */
final class Violations {
    private static final Map<Invariant, Integer> TOLERATED = new EnumMap<>(Invariant.class);
    private static final Map<Invariant, String> FIRST_TOLERATED = new EnumMap<>(Invariant.class);

    private final List<String> lines = new ArrayList<>();
    private final Set<Invariant> broken = EnumSet.noneOf(Invariant.class);

    void add(Invariant invariant, String detail) {
        if (lines.size() < 20) {
            lines.add(invariant + " (" + invariant.text + "): " + detail);
        }
        broken.add(invariant);
    }

    @Override
    public String toString() {
        return String.join("; ", lines);
    }

    Set<Invariant> broken() {
        return broken;
    }

    boolean isEmpty() {
        return broken.isEmpty();
    }

    /** Throws when an invariant that is not a tolerated known gap broke on {@code input}. */
    void verdict(byte[] input) {
        if (broken.isEmpty()) {
            return;
        }
        String report = String.join("\n  ", lines);
        if (broken.stream().anyMatch(i -> !i.tolerated())) {
            throw new AssertionError("invariant broken:\n  " + report + "\ninput (" + input.length + " bytes): "
                + RecordingApp.escape(new String(input, java.nio.charset.StandardCharsets.ISO_8859_1)));
        }
        synchronized (TOLERATED) {
            for (Invariant gap : broken) {
                TOLERATED.merge(gap, 1, Integer::sum);
                FIRST_TOLERATED.putIfAbsent(gap, lines.stream().filter(l -> l.startsWith(gap + " ")).findFirst().orElse(""));
            }
        }
    }

    /** The known gaps inputs broke so far, how often, and the first such input's report; or null. */
    static String toleratedSummary() {
        synchronized (TOLERATED) {
            if (TOLERATED.isEmpty()) {
                return null;
            }
            StringBuilder s = new StringBuilder("inputs that broke only known gaps (passed; NETTYRACK_FUZZ_STRICT=1 fails them):");
            TOLERATED.forEach((gap, n) -> s.append("\n  ").append(n).append(" x ").append(FIRST_TOLERATED.get(gap)));
            return s.toString();
        }
    }
}
