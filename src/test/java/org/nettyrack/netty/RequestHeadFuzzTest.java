package org.nettyrack.netty;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzzes the request head decoder and guard: raw client bytes through the real HTTP/1.1
 * pipeline ({@link HttpPipeline}), played by {@link FuzzConnection}, checked against
 * {@link Invariant}. No input may crash the pipeline, leak a buffer or a temp file, leave the
 * connection stuck, reach the app malformed, or get an answer a strict client cannot parse.
 *
 * <p>{@code mvn test} replays the seed corpus in
 * {@code src/test/resources/org/nettyrack/netty/RequestHeadFuzzTestInputs/pipeline} (attack
 * shapes and valid requests, one connection per file; {@code <<read>>} and {@code <<idle>>}
 * split it into reads) plus every finding Jazzer saved there, in a few seconds.
 * {@code bench/fuzz} fuzzes for a while ({@code JAZZER_FUZZ=1}). An input that breaks only a
 * known gap of today's code passes and is counted instead: see {@link Invariant}.
 */
class RequestHeadFuzzTest {
    private static LeakReports leaks;

    @BeforeAll
    static void watchForLeaks() {
        leaks = LeakReports.install(FuzzConnection.class.getName());
    }

    @AfterAll
    static void noLeakReported() {
        String tolerated = Violations.toleratedSummary();
        if (tolerated != null) {
            System.out.println("RequestHeadFuzzTest: " + tolerated);
        }
        leaks.sweep();
        List<String> reports = leaks.drain();
        leaks.uninstall();
        if (!reports.isEmpty()) {
            throw new AssertionError("Netty's leak detector reported " + reports.size() + " leak(s):\n" + reports.get(0));
        }
    }

    @FuzzTest(maxDuration = "5m")
    @DictionaryFile(resourcePath = "RequestHeadFuzzTest.dict")
    void pipeline(byte[] input) {
        Violations violations = FuzzConnection.play(input);
        for (String report : leaks.drain()) {
            violations.add(Invariant.NO_LEAK, report);
        }
        violations.verdict(input);
    }
}
