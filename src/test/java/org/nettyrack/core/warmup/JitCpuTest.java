package org.nettyrack.core.warmup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JitCpuTest {
    @Test
    void knowsTheJitsThreadsByTheirNativeNames() {
        assertTrue(JitCpu.isCompiler("C2 CompilerThre"));
        assertTrue(JitCpu.isCompiler("C1 CompilerThre"));
        assertTrue(JitCpu.isCompiler("Ruby-0-JIT-1"));
        assertFalse(JitCpu.isCompiler("GC Thread#0"));
        assertFalse(JitCpu.isCompiler("nettyrack-worke"));
        assertFalse(JitCpu.isCompiler("JIT-cache-warme"), "an app's thread that only says JIT");
    }

    @Test
    void readsUserAndSystemTicksPastANameWithSpacesAndParentheses() {
        String stat = "4242 (C2 CompilerThre) S 1 4200 4200 0 -1 4194624 500 0 0 0 113 3 0 0 20 0 30 0 2158 0 0";
        assertEquals(116, JitCpu.ticks(stat));
        assertEquals(7, JitCpu.ticks("7 (odd ) name)) R 1 1 1 0 -1 0 0 0 0 0 5 2 0 0 20 0"));
    }

    @Test
    void theMeterCountsTheCompilersOfThisJvmAndNeverGoesBack() {
        JitCpu.Meter meter = new JitCpu.Meter();
        JitCpu first = meter.read();
        long sum = 0;
        for (int i = 0; i < 2_000_000; i++) {
            sum += Integer.toString(i).hashCode(); // something for the JIT to compile and the process to spend
        }
        JitCpu second = meter.read();
        assertTrue(second.processMillis() >= first.processMillis(), "process CPU " + first + " then " + second + " " + sum);
        assertTrue(second.compilerMillis() >= first.compilerMillis(), "compiler CPU " + first + " then " + second);
        assertTrue(second.processMillis() > 0);
    }
}
