package org.nettyrack.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.nettyrack.core.config.Bounds.accepts;
import static org.nettyrack.core.config.Bounds.refuses;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ListenTest {
    @Test
    void theDefaultsListenOn9292WithoutProxyHeaders() {
        assertEquals(List.of(new Bind("0.0.0.0", 9292)), Listen.DEFAULTS.binds());
        assertEquals(false, Listen.DEFAULTS.proxyProtocol());
        accepts(Listen.DEFAULTS::check);
    }

    @Test
    void portsRunFromZeroTo65535() {
        accepts(tcp(0)::check);
        accepts(tcp(65535)::check);
        refuses("port must be 0..65535, got -1", tcp(-1)::check);
        refuses("port must be 0..65535, got 65536", tcp(65536)::check);
        refuses("bind host must not be empty", new Listen(List.of(new Bind("", 1)), false)::check);
        refuses("bind scheme must be one of [tcp, ssl, unix], got udp", listen(new Bind("udp", "h", 1, null, Map.of()))::check);
    }

    @Test
    void aUnixBindsBacklogRunsFromOneTo65535() {
        accepts(unix(Map.of("backlog", "1"))::check);
        accepts(unix(Map.of("backlog", "65535"))::check);
        refuses("unix bind backlog must be 1..65535, got 0", unix(Map.of("backlog", "0"))::check);
        refuses("unix bind backlog must be 1..65535, got 65536", unix(Map.of("backlog", "65536"))::check);
        refuses("unix bind mode must be octal permissions such as 0660, got 0668", unix(Map.of("mode", "0668"))::check);
        refuses("unix bind path must not be empty", listen(new Bind("unix", null, 0, "", Map.of()))::check);
    }

    @Test
    void keepsItsOwnListOfBinds() {
        List<Bind> binds = new ArrayList<>(List.of(new Bind("::1", 1)));
        Listen listen = new Listen(binds, true);
        binds.clear();
        assertEquals(1, listen.binds().size());
        assertThrows(UnsupportedOperationException.class, () -> listen.binds().clear());
    }

    private static Listen tcp(int port) {
        return listen(new Bind("127.0.0.1", port));
    }

    private static Listen unix(Map<String, String> params) {
        return listen(new Bind("unix", null, 0, "/run/app.sock", params));
    }

    private static Listen listen(Bind bind) {
        return new Listen(List.of(bind), false);
    }
}
