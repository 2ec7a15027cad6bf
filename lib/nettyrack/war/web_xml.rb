# frozen_string_literal: true

require "cgi"

module Nettyrack
  module War
    # The WEB-INF/web.xml that `nettyrack war` writes when the app has no config/web.xml:
    # Jakarta Servlet 6, the context params (config.webxml), nettyrack's listener (boots the
    # one JRuby runtime and loads config.ru) and its filter on /* (static files the container
    # has go out as they are; everything else goes to Rack), async-supported: requests wait for
    # a worker off the container's threads, and SSE.
    module WebXml
      LISTENER = "org.nettyrack.servlet.RackListener"
      FILTER = "org.nettyrack.servlet.RackFilter"

      module_function

      def render(params)
        <<~XML
          <?xml version="1.0" encoding="UTF-8"?>
          <!-- Written by nettyrack war. Put your own in config/web.xml to replace it. -->
          <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee"
                   xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                   xsi:schemaLocation="https://jakarta.ee/xml/ns/jakartaee https://jakarta.ee/xml/ns/jakartaee/web-app_6_0.xsd"
                   version="6.0">
          #{params.sort.map { |name, value| context_param(name, value) }.join}
            <listener>
              <listener-class>#{LISTENER}</listener-class>
            </listener>

            <filter>
              <filter-name>RackFilter</filter-name>
              <filter-class>#{FILTER}</filter-class>
              <async-supported>true</async-supported>
            </filter>
            <filter-mapping>
              <filter-name>RackFilter</filter-name>
              <url-pattern>/*</url-pattern>
            </filter-mapping>
          </web-app>
        XML
      end

      def context_param(name, value)
        <<-XML
  <context-param>
    <param-name>#{CGI.escapeHTML(name)}</param-name>
    <param-value>#{CGI.escapeHTML(value)}</param-value>
  </context-param>
        XML
      end
    end
  end
end
