package org.nettyrack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ServerConfigTest {
    @Test
    void defaultsAreSaneAndListenOn9292() {
        ServerConfig c = ServerConfig.builder().build();
        assertEquals("http://0.0.0.0:9292", c.binds().get(0).url());
        assertTrue(c.maxThreads() >= 16);
        assertEquals(100L * 1024 * 1024, c.maxBodySize());
        assertEquals(8 * 1024, c.maxUriLength());
        assertEquals(16 * 1024, c.maxHeaderSize());
        assertFalse(c.proxyProtocol(), "a PROXY header is only expected when asked for");
    }

    @Test
    void badValuesAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ServerConfig.builder().threads(8, 2).build());
        assertEquals("minimum threads (8) exceed the maximum (2)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().bind("0.0.0.0", 70000).build());
        assertThrows(IllegalArgumentException.class, () -> ServerConfig.builder().maxHeaders(0).build());
    }

    @Test
    void theConnectionCapLeavesFilesForEverythingElse() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long files = ((com.sun.management.UnixOperatingSystemMXBean) os).getMaxFileDescriptorCount();
        assertEquals(0, ServerConfig.builder().build().maxConnections());
        assertEquals(Math.max(64, files - ServerConfig.FILES_KEPT_FREE), ServerConfig.builder().build().connectionCap());
        assertEquals(300, ServerConfig.builder().maxConnections(300).build().connectionCap());
    }

    @Test
    void ipv6BindsGetBrackets() {
        assertEquals("http://[::1]:80", new ServerConfig.Bind("::1", 80).url());
    }
}
