# frozen_string_literal: true

# nettyrack: a Rack server for JRuby. Java (lib/nettyrack/jars) owns the sockets, HTTP parsing,
# event loops and worker threads; Ruby owns configuration, the command line and loading the
# app. Requiring this file loads the jars and Nettyrack::Server, not Rack: the launcher loads
# Rack only to read config.ru.
require_relative "nettyrack/version"
require_relative "nettyrack/errors"
require_relative "nettyrack/platform"

if (problem = Nettyrack::Platform.problem)
  raise LoadError, problem
end

require "java"
require "jruby"

module Nettyrack
  JARS = Dir[File.join(__dir__, "nettyrack", "jars", "*.jar")].sort.freeze

  # In a WAR the jars are in WEB-INF/lib, on the class path JRuby was loaded from, and the
  # gem has none of its own.
  def self.classes_loaded?
    java.lang.Class.forName("org.nettyrack.jruby.NettyrackLibrary", false, JRuby.runtime.jruby_class_loader)
    true
  rescue java.lang.ClassNotFoundException
    false
  end

  # A reloaded app's runtime (ReloadedApp) sits on the serving runtime's class loader, which
  # has the classes already: its jars are not added a second time.
  if classes_loaded?
    nil
  elsif JARS.any? { |jar| File.basename(jar) == "nettyrack.jar" }
    JARS.each { |jar| require jar }
  else
    raise LoadError, "nettyrack.jar is missing from #{File.join(__dir__, 'nettyrack', 'jars')}; " \
                     "build it with: rake jar (mvn -B -q -DskipTests package)"
  end
  Java::OrgNettyrackJruby::NettyrackLibrary.new.load(JRuby.runtime, false)
end

require_relative "nettyrack/publishing"
require_relative "nettyrack/server"
