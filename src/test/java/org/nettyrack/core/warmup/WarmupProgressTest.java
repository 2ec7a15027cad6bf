package org.nettyrack.core.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmupProgressTest {
    private static final long SECOND = 1_000_000_000L;

    /** Feeds one sample a second at these rates, the JIT quiet; returns the second (1-based) it stopped at and why. */
    private static String run(WarmupProgress progress, double... rates) {
        long answered = 0;
        for (int i = 0; i < rates.length; i++) {
            answered += (long) rates[i];
            WarmupProgress.Stop stop = progress.sample((i + 1) * SECOND, answered, 5 * i);
            if (stop != null) {
                return (i + 1) + " " + stop;
            }
        }
        return "went on";
    }

    @Test
    void goesOnWhileThroughputRises() {
        double[] rising = {100, 150, 200, 260, 330, 400, 480, 560, 650, 750, 860};
        assertEquals("went on", run(new WarmupProgress(0, 60_000, 0, 0), rising));
    }

    @Test
    void stopsOnceThroughputHasBeenFlatForThePatience() {
        assertEquals("8 PLATEAU", run(new WarmupProgress(0, 60_000, 0, 0), 500, 510, 495, 505, 500, 498, 502, 500, 500, 500));
    }

    @Test
    void aJumpAfterAFlatStretchResetsThePatience() {
        // flat for four seconds, then the JIT's next tier lands
        assertEquals("13 PLATEAU",
            run(new WarmupProgress(0, 60_000, 0, 0), 100, 100, 100, 100, 100, 300, 300, 300, 300, 300, 300, 300, 300));
    }

    @Test
    void aFlatRateWhileTheJitStillCompilesIsNoPlateau() {
        // beside a busy old process: 140 req/s, flat, the compilers at a second a second
        WarmupProgress progress = new WarmupProgress(0, 60_000, 0, 0);
        long compiled = 0;
        for (int second = 1; second <= 20; second++) {
            compiled += second <= 12 ? 1_000 : 20;
            WarmupProgress.Stop stop = progress.sample(second * SECOND, 140L * second, compiled);
            if (second <= 14) {
                assertNull(stop, "still compiling at second " + second);
            } else {
                assertEquals(WarmupProgress.Stop.PLATEAU, stop, "quiet for three seconds by " + second);
                return;
            }
        }
    }

    @Test
    void neverBeforeTheMinimumEvenWhenFlatFromTheStart() {
        WarmupProgress progress = new WarmupProgress(0, 60_000, 0, 0);
        assertNull(progress.sample(SECOND, 0, 0));
        assertNull(progress.sample(2 * SECOND, 0, 0));
        assertNull(progress.sample(4 * SECOND, 0, 0));
    }

    @Test
    void stopsAtItsTimeAndAtItsCount() {
        assertEquals("3 TIME", run(new WarmupProgress(0, 3_000, 0, 0), 100, 200, 400, 800));
        assertEquals("2 COUNT", run(new WarmupProgress(0, 60_000, 250, 0), 100, 200, 400));
        WarmupProgress counted = new WarmupProgress(0, 60_000, 250, 0);
        assertNull(counted.answered(249));
        assertEquals(WarmupProgress.Stop.COUNT, counted.answered(250));
        assertNull(new WarmupProgress(0, 60_000, 0, 0).answered(1_000_000), "0: no count");
    }

    @Test
    void keepsTheRateOfEachSecond() {
        WarmupProgress progress = new WarmupProgress(0, 60_000, 0, 0);
        progress.sample(SECOND, 100, 0);
        progress.sample(3 * SECOND, 500, 0);
        assertEquals(List.of(100.0, 200.0), progress.rates());
    }
}
