package org.nettyrack.core.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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

    @Test
    void aReloadIsAskedForOnceUntilItEnds() {
        Lifecycle life = new Lifecycle();
        assertNull(life.reload());
        assertNull(life.askReload());
        assertEquals("requested", life.reload());
        assertEquals("a reload is under way already (requested)", life.askReload());
        life.reload("canary: 25 % of requests", true);
        assertEquals("a reload is under way already (canary: 25 % of requests)", life.askReload());
        life.reload("done: generation 2 serves", false);
        assertNull(life.askReload());
    }
}
