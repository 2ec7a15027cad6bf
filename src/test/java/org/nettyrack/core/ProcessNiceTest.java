package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class ProcessNiceTest {
    @Test
    void readsTheNiceFieldPastANameWithSpacesAndParentheses() {
        String stat = "4242 (C2 Compiler) Thr) S 1 4242 4242 0 -1 4194368 1 0 0 0 5 3 0 0 20 10 42 0 100 1 2";
        assertEquals(10, ProcessNice.niceIn(stat));
    }

    @Test
    void restoresEveryThreadToTheBaseAndTheWorkersToTheirOwnValue() {
        Map<Integer, Integer> set = new ConcurrentHashMap<>();
        int current = ProcessNice.current();
        int failed = ProcessNice.restore(current + 1, 19, (tid, nice) -> {
            set.put(tid, nice);
            return 0;
        });
        assertEquals(0, failed);
        assertTrue(set.values().stream().allMatch(nice -> nice == current + 1 || nice == 19), set.toString());
        assertTrue(set.size() > 1, "every thread of this JVM: " + set);
    }

    @Test
    void countsTheThreadsItCouldNotSet() {
        int current = ProcessNice.current();
        assertTrue(ProcessNice.restore(current + 1, 0, (tid, nice) -> 13) > 0, "EACCES for each");
    }
}
