# frozen_string_literal: true

require_relative "lib/nettyrack/version"

Gem::Specification.new do |spec|
  spec.name = "nettyrack"
  spec.version = Nettyrack::VERSION
  spec.platform = "java"
  spec.authors = ["nettyrack contributors"]
  spec.summary = "A Rack server for JRuby built on Netty"
  spec.description = "nettyrack serves Rack applications on JRuby from a Netty event loop, " \
                     "with Puma-like command-line options."
  spec.homepage = "https://github.com/nettyrack/nettyrack"
  spec.license = "MIT"
  spec.metadata = {
    "source_code_uri" => spec.homepage,
    "bug_tracker_uri" => "#{spec.homepage}/issues",
    "rubygems_mfa_required" => "true"
  }
  spec.required_ruby_version = ">= 3.1"

  # lib/nettyrack/jars/*.jar are built by `rake jar` (mvn package); `rake gem` builds them first.
  spec.files = Dir.chdir(__dir__) do
    Dir["lib/**/*.rb", "lib/nettyrack/jars/*.jar", "bin/nettyrack", "README.md", "docs/*.md"]
  end
  spec.bindir = "bin"
  spec.executables = ["nettyrack"]
  spec.require_paths = ["lib"]

  spec.add_dependency "rack", ">= 2.2", "< 4"
end
