# frozen_string_literal: true

module Nettyrack
  module War
    # Which files of the app go where, as Warbler chooses them:
    #   WEB-INF/  config.ru, Gemfile, Gemfile.lock, everything under Settings#dirs, and the
    #             files Settings#includes matches, less what Settings#all_excludes matches
    #   the root  everything under public/ (a servlet container serves it from there)
    # Patterns are relative to the app directory; a string is a glob (File.fnmatch with
    # FNM_PATHNAME, so ** spans directories), a Regexp is matched against the relative path,
    # and excluding a directory excludes what is in it.
    class AppFiles
      ALWAYS = %w[config.ru Gemfile Gemfile.lock].freeze

      def initialize(settings, skip: [])
        @settings = settings
        @root = settings.app_dir
        @skip = skip.map { |path| File.expand_path(path) }
      end

      # {"WEB-INF/app/models/user.rb" => "/path/app/models/user.rb", "index.html" => ...}
      def entries
        webinf = (ALWAYS.select { |name| file?(name) } + application_files).uniq
        public_files = files_under("public").to_h { |path| [path.delete_prefix("public/"), absolute(path)] }
        webinf.to_h { |path| ["WEB-INF/#{path}", absolute(path)] }.merge(public_files)
      end

      def application_files
        (Array(@settings.dirs).flat_map { |dir| files_under(dir.to_s) } + included).uniq.reject { |path| excluded?(path) }
      end

      private

      def included
        Array(@settings.includes).flat_map do |pattern|
          next [] if pattern.is_a?(Regexp)

          Dir.glob(pattern.to_s, File::FNM_DOTMATCH, base: @root).flat_map do |path|
            File.directory?(absolute(path)) ? files_under(path) : [path]
          end
        end.select { |path| file?(path) }
      end

      def excluded?(path)
        candidates = ancestors(path) << path
        Array(@settings.all_excludes).any? do |pattern|
          candidates.any? { |candidate| matches?(pattern, candidate) }
        end || @skip.include?(absolute(path))
      end

      def matches?(pattern, path)
        return pattern.match?(path) if pattern.is_a?(Regexp)

        File.fnmatch?(pattern.to_s, path, File::FNM_PATHNAME | File::FNM_DOTMATCH | File::FNM_EXTGLOB)
      end

      def ancestors(path)
        parts = path.split("/")[0...-1]
        parts.each_index.map { |i| parts[0..i].join("/") }
      end

      # Files below dir (relative), following symlinks but not in circles.
      def files_under(dir, seen = [])
        full = absolute(dir)
        return [] unless File.directory?(full)

        real = File.realpath(full)
        return [] if seen.include?(real)

        Dir.children(full).sort.flat_map do |name|
          path = "#{dir}/#{name}"
          File.directory?(absolute(path)) ? files_under(path, seen + [real]) : (file?(path) ? [path] : [])
        end
      end

      def file?(path)
        File.file?(absolute(path))
      end

      def absolute(path)
        File.join(@root, path)
      end
    end
  end
end
