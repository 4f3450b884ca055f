using System.Collections.Generic;

namespace Encore.Campaigns
{
    /// <summary>Reads fields of parsed JSON (Json.Parse) the lenient way spec 2.1 allows: absent is zero.</summary>
    public static class Field
    {
        public static string Text(Dictionary<string, object> map, string name)
        {
            object value;
            return map != null && map.TryGetValue(name, out value) && value != null ? value.ToString() : "";
        }

        public static string OptionalText(Dictionary<string, object> map, string name)
        {
            object value;
            return map != null && map.TryGetValue(name, out value) && value != null ? value.ToString() : null;
        }

        public static bool Bool(Dictionary<string, object> map, string name)
        {
            object value;
            return map != null && map.TryGetValue(name, out value) && value is bool && (bool)value;
        }

        public static int Int(Dictionary<string, object> map, string name)
        {
            object value;
            return map != null && map.TryGetValue(name, out value) && value is JsonNumber ? ((JsonNumber)value).ToInt32() : 0;
        }

        public static Dictionary<string, object> Object(Dictionary<string, object> map, string name)
        {
            object value;
            return map != null && map.TryGetValue(name, out value) ? value as Dictionary<string, object> : null;
        }

        public static List<object> List(Dictionary<string, object> map, string name)
        {
            object value;
            return map != null && map.TryGetValue(name, out value) && value is List<object> ? (List<object>)value : new List<object>();
        }
    }
}
