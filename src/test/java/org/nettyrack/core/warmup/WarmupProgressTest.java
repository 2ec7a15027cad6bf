package org.nettyrack.core.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmupProgressTest {
    private static final long SECOND = 1_000_000_000L;
    private static final JitCpu NONE = new JitCpu(0, 0);

    private static WarmupProgress progress(long maxMillis, long maxRequests) {
        return new WarmupProgress(0, maxMillis, maxRequests, NONE);
    }

    /** Feeds one sample a second at these rates, the compilers at 0.5 % of the process's CPU; returns the second (1-based) it stopped at and why. */
    private static String run(WarmupProgress progress, double... rates) {
        long answered = 0;
        for (int i = 0; i < rates.length; i++) {
            answered += (long) rates[i];
            WarmupProgress.Stop stop = progress.sample((i + 1) * SECOND, answered, new JitCpu(5L * i, 1_000L * i));
            if (stop != null) {
                return (i + 1) + " " + stop;
            }
        }
        return "went on";
    }

    @Test
    void goesOnWhileThroughputRises() {
        double[] rising = {100, 150, 200, 260, 330, 400, 480, 560, 650, 750, 860};
        assertEquals("went on", run(progress(60_000, 0), rising));
    }

    @Test
    void stopsOnceThroughputHasBeenFlatForThePatience() {
        assertEquals("8 PLATEAU", run(progress(60_000, 0), 500, 510, 495, 505, 500, 498, 502, 500, 500, 500));
    }

    @Test
    void aJumpAfterAFlatStretchResetsThePatience() {
        // flat for four seconds, then the JIT's next tier lands
        assertEquals("13 PLATEAU",
            run(progress(60_000, 0), 100, 100, 100, 100, 100, 300, 300, 300, 300, 300, 300, 300, 300));
    }

    @Test
    void aFlatRateWhileTheJitStillCompilesIsNoPlateau() {
        // beside a busy old process: 140 req/s, flat, the compilers at a second a second of the 1.5 s the process gets
        assertEquals(15, plateauSecond(140, second -> second <= 12 ? 1_000 : 20, second -> 1_500));
    }

    @Test
    void aStarvedProcessIsNotWarmBecauseItCompilesLittlePerSecond() {
        // niced beside a busy old process: 60 ms of CPU a second, the compilers take 40 of them
        // (40 ms a second of the clock looked quiet when weighed against the clock)
        assertEquals(-1, plateauSecond(7, second -> 40, second -> 60));
        // the compilers done, the same starved process: its plateau is real
        assertEquals(8, plateauSecond(7, second -> 1, second -> 60));
    }

    @Test
    void aProcessThatGotNoCpuIsNotQuiet() {
        assertEquals(-1, plateauSecond(0, second -> 0, second -> 0));
    }

    /** The second (1-based) a flat rate is called a plateau at, with these compiler and process ms per second; -1: not in 30. */
    private static int plateauSecond(long rate, java.util.function.IntToLongFunction compilerMs, java.util.function.IntToLongFunction processMs) {
        WarmupProgress progress = progress(60_000, 0);
        long compilers = 0;
        long process = 0;
        for (int second = 1; second <= 30; second++) {
            compilers += compilerMs.applyAsLong(second);
            process += processMs.applyAsLong(second);
            WarmupProgress.Stop stop = progress.sample(second * SECOND, rate * second, new JitCpu(compilers, process));
            if (stop != null) {
                assertEquals(WarmupProgress.Stop.PLATEAU, stop);
                return second;
            }
        }
        return -1;
    }

    @Test
    void neverBeforeTheMinimumEvenWhenFlatFromTheStart() {
        WarmupProgress progress = progress(60_000, 0);
        assertNull(progress.sample(SECOND, 0, new JitCpu(0, 1_000)));
        assertNull(progress.sample(2 * SECOND, 0, new JitCpu(0, 2_000)));
        assertNull(progress.sample(4 * SECOND, 0, new JitCpu(0, 4_000)));
    }

    @Test
    void stopsAtItsTimeAndAtItsCount() {
        assertEquals("3 TIME", run(progress(3_000, 0), 100, 200, 400, 800));
        assertEquals("2 COUNT", run(progress(60_000, 250), 100, 200, 400));
        WarmupProgress counted = progress(60_000, 250);
        assertNull(counted.answered(249));
        assertEquals(WarmupProgress.Stop.COUNT, counted.answered(250));
        assertNull(progress(60_000, 0).answered(1_000_000), "0: no count");
    }

    @Test
    void keepsTheRateOfEachSecond() {
        WarmupProgress progress = progress(60_000, 0);
        progress.sample(SECOND, 100, NONE);
        progress.sample(3 * SECOND, 500, NONE);
        assertEquals(List.of(100.0, 200.0), progress.rates());
    }
}
