# frozen_string_literal: true

require "rubygems"
require_relative "archive"
require_relative "../version"

module Nettyrack
  module War
    # nettyrack's Ruby half as an installed gem under WEB-INF/gems (lib/**/*.rb, bin/nettyrack
    # and a gemspec), so `require "nettyrack"` and bin/nettyrack work from GEM_PATH. Its jars
    # are in WEB-INF/lib instead: lib/nettyrack.rb finds their classes already loaded there.
    class NettyrackGem
      ROOT = File.expand_path("../../..", __dir__)

      def spec
        @spec ||= Gem::Specification.new do |spec|
          spec.name = "nettyrack"
          spec.version = VERSION
          spec.platform = "java"
          spec.summary = "A Rack server for JRuby built on Netty"
          spec.authors = ["nettyrack contributors"]
          spec.files = files
          spec.bindir = "bin"
          spec.executables = ["nettyrack"]
          spec.require_paths = ["lib"]
          spec.add_dependency "rack", ">= 2.2", "< 4"
        end
      end

      # The executable, relative to WEB-INF.
      def launcher
        "gems/gems/#{spec.full_name}/bin/nettyrack"
      end

      def entries(gem_path)
        gem_dir = "#{gem_path}/gems/#{spec.full_name}"
        found = files.to_h { |path| ["#{gem_dir}/#{path}", File.join(ROOT, path)] }
        found.merge("#{gem_path}/specifications/#{spec.full_name}.gemspec" => Archive::Bytes.new(spec.to_ruby))
      end

      private

      def files
        Dir.chdir(ROOT) { Dir["lib/**/*.rb", "bin/nettyrack"].sort }
      end
    end
  end
end
