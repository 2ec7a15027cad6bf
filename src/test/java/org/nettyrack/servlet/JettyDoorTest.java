package org.nettyrack.servlet;

/** The servlet door in Jetty 12 (ee10). */
class JettyDoorTest extends ServletDoorContract {
    @Override
    Container newContainer() {
        return new JettyContainer();
    }
}
