package org.nettyrack.servlet;

/** The servlet door in Tomcat 11. */
class TomcatDoorTest extends ServletDoorContract {
    @Override
    Container newContainer() {
        return new TomcatContainer();
    }
}
