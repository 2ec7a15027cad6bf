package org.nettyrack.core.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LifecycleTest {
    @Test
    void readyOnlyWhileServingAndPhasesOnlyGoForward() {
        Lifecycle life = new Lifecycle();
        assertEquals(Lifecycle.Phase.BOOTING, life.phase());
        assertFalse(life.ready());
        life.enter(Lifecycle.Phase.WARMING);
        assertFalse(life.ready());
        life.enter(Lifecycle.Phase.SERVING);
        assertTrue(life.ready());
        life.enter(Lifecycle.Phase.BOOTING);
        assertEquals(Lifecycle.Phase.SERVING, life.phase(), "no way back");
        life.enter(Lifecycle.Phase.DRAINING);
        assertFalse(life.ready());
        assertEquals("draining", life.phase().label());
    }
}
