# frozen_string_literal: true

module Nettyrack
  module War
    # The WEB-INF/jetty-web.xml that `nettyrack war` writes when the app has no
    # config/jetty-web.xml. Jetty reads it when it deploys the WAR (any EE environment, hence no
    # class on <Configure>); other containers ignore it.
    #
    # What it does: Jetty, stopped (SIGTERM; its shutdown hook), closes every connection before
    # it stops its web apps, so an open WebSocket or SSE stream was cut (1006) before the door
    # could run on_shutdown and close it with 1001. Registered first with that same hook, the
    # web app is stopped before the server: RackFilter#destroy ends the push connections while
    # they are still open. The cost: Jetty's hook keeps each web app it was given, so after a
    # hot redeploy the stopped context (without its class loader, which Jetty drops) stays
    # referenced until the JVM exits.
    module JettyWebXml
      module_function

      def render
        <<~XML
          <?xml version="1.0"?>
          <!DOCTYPE Configure PUBLIC "-//Jetty//Configure//EN" "https://jetty.org/configure_10_0.dtd">
          <!-- Written by nettyrack war. Put your own in config/jetty-web.xml to replace it.
               On Jetty's stop, this web app stops before the server closes its connections:
               open WebSockets and SSE streams get on_shutdown and a clean close. -->
          <Configure id="nettyrackWebApp">
            <Call class="org.eclipse.jetty.util.thread.ShutdownThread" name="register">
              <Arg type="int">0</Arg>
              <Arg>
                <Array type="org.eclipse.jetty.util.component.LifeCycle">
                  <Item><Ref refid="nettyrackWebApp"/></Item>
                </Array>
              </Arg>
            </Call>
          </Configure>
        XML
      end
    end
  end
end
